import WebSocket from 'ws';
import { monotonicMs } from './lib/stats.js';

/**
 * A display screen in its own process, as Chromium is on the Pi: a WebSocket client of `argv[2]` that
 * tells its parent when each message arrived (on the machine's monotonic clock) and what it said.
 */

export interface Heard {
  at: number;
  text: string;
}

const url = process.argv[2];
if (url === undefined || !process.send) throw new Error('usage: forked with the WebSocket URL to listen to');
const socket = new WebSocket(url);
socket.on('open', () => process.send?.('open'));
socket.on('message', (data) => {
  const at = monotonicMs();
  process.send?.({ at, text: data.toString() } satisfies Heard);
});
socket.on('error', (error) => {
  process.stderr.write(`ws-listener: ${error.message}\n`);
  process.exit(1);
});
// The parent is done with it, or gone.
process.on('disconnect', () => process.exit(0));
