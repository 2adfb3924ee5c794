import './style.css';
import './floor-app.js';
