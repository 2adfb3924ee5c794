import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { filter, first, firstValueFrom, scan } from 'rxjs';
import { type WebSocket, WebSocketServer } from 'ws';
import { encodeMessage } from '../firmware-bridge/codec.js';
import { type Cleanups, openDevicePort, startPtyPair } from '../simulators/pty.js';
import { openSerialLink } from '../src/io/serial.js';
import { openScreen } from './lib/screen.js';
import { monotonicMs } from './lib/stats.js';

/**
 * The floors of the e2e path: its bare transports, measured in the same run, each alone. A reader frame
 * from one end of a PTY pair to the other, one insert into a WAL database with synchronous=FULL, and one
 * WebSocket message to a client in another process. Their per-sample sums are the floor the e2e latency
 * is held against: what croupier would take if driver, normaliser, journal and machine took nothing.
 */

export interface Floors {
  pty: number[];
  sqlite: number[];
  websocket: number[];
}

const SAMPLES = 300;
const BAUD = 115_200;
/** Between two samples, so none waits behind the one before. */
const GAP_MS = 3;

/** A frame as the reader board writes it, until croupier's serial link has read it at the other end. */
async function ptyLatencies(dir: string, cleanups: Cleanups): Promise<number[]> {
  const pty = await startPtyPair(dir, cleanups);
  const device = await openDevicePort(pty.device, cleanups);
  const host = openSerialLink({ device: { path: pty.host }, baudRate: BAUD });
  cleanups.push(() => host.close());
  await firstValueFrom(host.status$.pipe(filter((status) => status.state === 'open')));
  const frame = encodeMessage(
    { type: 'tag-read', antenna: 2, uid: 'E0040150A1B2C3D4', rssi: -50, readerTimeMs: 1 },
    0,
  );
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const arrived = firstValueFrom(
      host.data$.pipe(
        scan((bytes, chunk) => bytes + chunk.length, 0),
        first((bytes) => bytes >= frame.length),
      ),
    );
    const written = monotonicMs();
    device.write(frame);
    await arrived;
    latencies.push(monotonicMs() - written);
    await sleep(GAP_MS);
  }
  return latencies;
}

/** One row the size of a journaled event, each its own transaction, on the disk when it returns. */
function sqliteLatencies(dir: string): number[] {
  const db = new Database(join(dir, 'floor.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE records (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO records (body) VALUES (?)');
    const body = 'x'.repeat(300);
    return Array.from({ length: SAMPLES }, () => {
      const started = performance.now();
      insert.run(body);
      return performance.now() - started;
    });
  } finally {
    db.close();
  }
}

/** A display message the size of an incident's alert, from this process to a client in another. */
async function websocketLatencies(cleanups: Cleanups): Promise<number[]> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  await new Promise((resolve) => server.once('listening', resolve));
  const connected = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
  const { port } = server.address() as { port: number };
  const screen = await openScreen(`ws://127.0.0.1:${port}`);
  cleanups.push(() => screen.close());
  const socket = await connected;
  const text = JSON.stringify({ type: 'output', padding: 'x'.repeat(1000) });
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const sent = monotonicMs();
    socket.send(text);
    latencies.push((await screen.next(() => true)).at - sent);
    await sleep(GAP_MS);
  }
  return latencies;
}

export async function measureFloors(dir: string, cleanups: Cleanups): Promise<Floors> {
  return {
    pty: await ptyLatencies(dir, cleanups),
    sqlite: sqliteLatencies(dir),
    websocket: await websocketLatencies(cleanups),
  };
}
