/** What integration tests use to run simulated devices on pseudo-terminals. */
export * from '../../simulators/pty.js';
export * from '../../simulators/rfid-reader/layout.js';
