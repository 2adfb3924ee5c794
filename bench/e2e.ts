import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { destination, pino } from 'pino';
import { filter, firstValueFrom, throwError, timeout } from 'rxjs';
import type { SerialPort } from 'serialport';
import { FrameDecoder } from '../firmware-bridge/codec.js';
import { openDevicePort, requireSocat, startPtyPair } from '../simulators/pty.js';
import { TEN_SEAT_ANTENNAS } from '../simulators/rfid-reader/layout.js';
import { SimulatedReader } from '../simulators/rfid-reader/reader.js';
import { parseConfig } from '../src/config/config.js';
import { type Controller, startController } from '../src/controller/controller.js';
import type { TableSnapshot, TableUpdate } from '../src/controller/pipeline.js';
import { publicState } from '../src/outputs/public.js';
import { measureFloors } from './e2e-floors.js';
import { benchmark, progress } from './lib/child.js';
import { openScreen, type Screen } from './lib/screen.js';
import { monotonicMs, percentile, rounded, sums } from './lib/stats.js';

/**
 * e2e_p50_ms, e2e_p99_ms: the simulated reader board writes a card's read on a real PTY; croupier's
 * driver, normaliser, journal (synchronous=FULL) and table machine rule on it; the alert reaches a
 * display client in another process over `/ws`: the state message that opens the incident, which is
 * what the screen draws the alert, its ruling and its procedure from (the `output` message sent after
 * it repeats the incident; the screen draws nothing from it). Hand after hand the dealer pitches a
 * card of another table's deck (FOREIGN_CARD, the hand void).
 *
 * A tag the registry does not know is a fact no other read can undo: it is judged at its own read,
 * not at the end of its antenna cycle (DESIGN.md "Real time"). The time measured is what the dealer
 * lives: from the write of the offending card's own frame to the alert on the screen. An alert that
 * came later than its card's read (`e2e_judged_by_clock`) is counted apart.
 */

const WINDOW_MS = 300;
const PERIOD_MS = 100;
const WARM_UP = 10;
/** A step of a hand that takes longer has failed. */
const LATE_MS = 5000;
const SAMPLES = 200;
/** The card on seat 1 (antenna 0). */
const FIRST_ANTENNA = 0;
const HAND = { button: 6, players: [1, 2, 3, 4, 5, 6], blinds: [50, 100] as [number, number], deck: 'A' };

/**
 * Stamps the reader's writes: when it first wrote a read of the armed tag. The chunks written are
 * decoded only when asked, so that the benchmark's own decoding does not hold croupier's event loop.
 */
function stampReads(port: SerialPort): { arm(uid: string): void; writtenAt(): number | undefined } {
  const write = port.write.bind(port) as (chunk: Buffer) => boolean;
  let armed: string | undefined;
  let writes: { at: number; chunk: Buffer }[] = [];
  port.write = ((chunk: Buffer) => {
    const at = monotonicMs();
    const written = write(chunk);
    if (armed !== undefined) writes.push({ at, chunk });
    return written;
  }) as typeof port.write;
  const readsArmed = (chunk: Buffer) =>
    new FrameDecoder()
      .push(chunk)
      .some((frame) => frame.ok && frame.message.type === 'tag-read' && frame.message.uid === armed);
  return {
    arm(uid) {
      armed = uid;
      writes = [];
    },
    writtenAt: () => writes.find(({ chunk }) => readsArmed(chunk))?.at,
  };
}

const foreignUid = (n: number) => `E0BE${(n + 0x10000).toString(16).slice(1).toUpperCase()}`;

/** The first update `wanted` accepts from now on. */
function updateWhere(
  controller: Controller,
  what: string,
  wanted: (update: TableUpdate) => boolean,
): Promise<TableUpdate> {
  const late = () => throwError(() => new Error(`no ${what} within ${LATE_MS} ms`));
  return firstValueFrom(controller.updates.pipe(filter(wanted), timeout({ first: LATE_MS, with: late })));
}

/** The screen's state message for `snapshot`: the one the display draws the incident's alert from. */
const stateOf = (snapshot: TableSnapshot) => {
  const expected = JSON.stringify(publicState(snapshot));
  return (message: unknown) => {
    const { type, state } = message as { type: string; state?: unknown };
    return type === 'state' && JSON.stringify(state) === expected;
  };
};

interface Rig {
  controller: Controller;
  reader: SimulatedReader;
  stamps: ReturnType<typeof stampReads>;
  screen: Screen;
}

/** One hand: the alert's latency from its card's frame, or null when it was not raised at that read. */
async function hand(n: number, { controller, reader, stamps, screen }: Rig): Promise<number | null> {
  const card = foreignUid(n);
  controller.input({ type: 'hand.start', t: Date.now(), ...HAND });
  const ruled = updateWhere(controller, 'FOREIGN_CARD', ({ outputs }) =>
    outputs.some((output) => output.kind === 'incident' && output.incident === 'FOREIGN_CARD'),
  );
  stamps.arm(card);
  reader.place(card, FIRST_ANTENNA);
  const { event, snapshot } = await ruled;
  const alert = await screen.next(stateOf(snapshot), LATE_MS);
  reader.remove(card);
  // The card off the table and the window past before the next hand, so no read of it joins that one.
  await sleep(WINDOW_MS + PERIOD_MS);
  const written = stamps.writtenAt();
  const atItsRead = event.type === 'card.seen' && event.uid === card;
  return atItsRead && written !== undefined ? alert.at - written : null;
}

benchmark(async () => {
  requireSocat('the e2e benchmark');
  const undo: (() => Promise<unknown>)[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-e2e-'));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  try {
    progress('e2e: floors');
    const floors = await measureFloors(dir, undo);
    const pty = await startPtyPair(dir, undo);
    const port = await openDevicePort(pty.device, undo);
    const stamps = stampReads(port);
    const reader = new SimulatedReader({
      antennas: TEN_SEAT_ANTENNAS,
      inventoryPeriodMs: PERIOD_MS,
      missProbability: 0,
    });
    reader.start(port);
    undo.push(async () => reader.stop());
    const config = parseConfig({
      table: { id: 'bench', orderWindowMs: WINDOW_MS },
      http: { port: 0 },
      mqtt: { embedded: { port: 0 } },
      devices: { rfid: [{ id: 'rfid-1', link: { path: pty.host }, inventoryPeriodMs: PERIOD_MS }] },
      journal: { path: join(dir, 'journal.db') },
    });
    // Logged as on a table (info), into nothing: the cost stays, the output goes.
    const log = pino({ level: config.log.level }, destination({ dest: '/dev/null', sync: true }));
    const controller = await startController(config, 'bench', log);
    undo.push(() => controller.close());
    const screen = await openScreen(`${controller.httpUrl.replace(/^http/, 'ws')}/ws`);
    undo.push(() => screen.close());
    while (controller.health.report().devices.some((device) => device.status !== 'online')) await sleep(20);
    const rig = { controller, reader, stamps, screen };

    progress(`e2e: ${WARM_UP + SAMPLES} hands, a card of another deck in each`);
    const latencies: number[] = [];
    let byClock = 0;
    for (let n = 0; n < WARM_UP + SAMPLES; n++) {
      const latency = await hand(n, rig);
      if (n < WARM_UP) continue;
      if (latency === null) byClock++;
      else latencies.push(latency);
    }
    const floor = sums(floors.pty, floors.sqlite, floors.websocket);
    const p50 = percentile(latencies, 50);
    const floorP50 = percentile(floor, 50);
    return {
      e2e_p50_ms: rounded(p50),
      e2e_p99_ms: rounded(percentile(latencies, 99)),
      e2e_floor_p50_ms: rounded(floorP50),
      e2e_floor_p99_ms: rounded(percentile(floor, 99)),
      e2e_vs_floor_p50: rounded(p50 / floorP50),
      pty_p50_ms: rounded(percentile(floors.pty, 50)),
      sqlite_full_insert_p50_ms: rounded(percentile(floors.sqlite, 50)),
      websocket_p50_ms: rounded(percentile(floors.websocket, 50)),
      e2e_samples: latencies.length,
      e2e_judged_by_clock: byClock,
    };
  } finally {
    for (const step of undo.reverse()) await step().catch(() => undefined);
  }
});
