import './style.css';
import './display-app.js';
