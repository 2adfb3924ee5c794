import { mkdir, mkdtemp, rm } from 'node:fs/promises';
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
import { FACES } from '../src/domain/cards.js';
import { scenarioUid } from '../src/domain/deck-registry.js';
import type { CardSeen } from '../src/domain/events.js';
import { publicState } from '../src/outputs/public.js';
import type { IncidentReport } from '../src/rules/types.js';
import { measureFloors } from './e2e-floors.js';
import { benchmark, progress } from './lib/child.js';
import { openScreen, type Screen } from './lib/screen.js';
import { median, monotonicMs, percentile, rounded, sums } from './lib/stats.js';

/**
 * The time from the card that decides an incident to its alert on the dealer's screen. The simulated
 * reader board (13 antennas, a round every 100 ms) writes its reads on a real PTY; croupier's driver,
 * normaliser, journal (synchronous=FULL) and table machine rule on them; the alert reaches a display
 * client in another process over `/ws`: the state message that opens the incident, which is what the
 * screen draws the alert, its ruling and its procedure from (the `output` message sent after it repeats
 * the incident; the screen draws nothing from it). Every latency runs from the board's write of the
 * deciding card's own frame to that message, on the machine's monotonic clock (the same in both
 * processes).
 *
 * alert_after_card_*: a fact no other read can undo is judged at its own read (DESIGN.md "Real time").
 * Hand after hand the dealer pitches a card of another table's deck (FOREIGN_CARD, the hand void) and
 * nothing after it. An alert that came later than its card's read (`alert_after_card_not_at_read`) is
 * counted apart.
 *
 * alert_after_cycle_*: an order-dependent fact waits until no read can come before the deciding one.
 * The dealer deals seats 1 and 2 of six, then seat 4 (seat 3 passed over: SEAT_SKIPPED, a misdeal) and
 * nothing after it. Seat 4's read is settled once the round after its own has ended (ROUND_END), 1 to 2
 * rounds after it was made; `reader_round_ms` is the round as the board's ROUND_END frames measure it.
 * `alert_after_cycle_no_rounds_*`: the same hands on a second rig whose board does not report its
 * rounds, so each read is settled `orderWindowMs` after it was made. A hand whose incident was not the
 * skipped seat 3 about seat 4's read (`…_misjudged`) is counted apart.
 */

const WINDOW_MS = 300;
const PERIOD_MS = 100;
/** A step of a hand that takes longer has failed. */
const LATE_MS = 5000;
const CARD_WARM_UP = 10;
const CARD_SAMPLES = 200;
const CYCLE_WARM_UP = 5;
const CYCLE_SAMPLES = 50;
/** After a card's read, before the next card: more than three rounds, more than the window. */
const PITCH_GAP_MS = 3 * PERIOD_MS + 20;
const HAND = { button: 6, players: [1, 2, 3, 4, 5, 6], blinds: [50, 100] as [number, number], deck: 'A' };
/** Seat N lies on antenna N-1 (TEN_SEAT_ANTENNAS). */
const antennaOf = (seat: number) => seat - 1;

interface Stamps {
  /** From now on, watch for the first write of a read of `uid`. */
  arm(uid: string): void;
  /** When the board first wrote a read of the armed tag. */
  writtenAt(): number | undefined;
  /** The ROUND_END frames written since the board started: round number and reader time. */
  roundEnds(): { round: number; readerTimeMs: number }[];
}

/**
 * Stamps the reader's writes (one frame each). The chunks written are decoded only when asked, so that
 * the benchmark's own decoding does not hold croupier's event loop.
 */
function stampWrites(port: SerialPort): Stamps {
  const write = port.write.bind(port) as (chunk: Buffer) => boolean;
  const writes: { at: number; chunk: Buffer }[] = [];
  let armed: { uid: string; from: number } | undefined;
  port.write = ((chunk: Buffer) => {
    const at = monotonicMs();
    const written = write(chunk);
    writes.push({ at, chunk });
    return written;
  }) as typeof port.write;
  const readsArmed = (chunk: Buffer) =>
    new FrameDecoder()
      .push(chunk)
      .some((frame) => frame.ok && frame.message.type === 'tag-read' && frame.message.uid === armed?.uid);
  return {
    arm(uid) {
      armed = { uid, from: writes.length };
    },
    writtenAt: () =>
      armed === undefined ? undefined : writes.slice(armed.from).find(({ chunk }) => readsArmed(chunk))?.at,
    roundEnds() {
      const decoder = new FrameDecoder();
      return writes.flatMap(({ chunk }) =>
        decoder.push(chunk).flatMap((frame) => {
          if (!frame.ok) return [];
          const { message } = frame;
          return message.type === 'round-end'
            ? [{ round: message.round, readerTimeMs: message.readerTimeMs }]
            : [];
        }),
      );
    },
  };
}

/** Median time between two consecutive ROUND_ENDs, on the board's clock. */
function roundPeriod(ends: readonly { round: number; readerTimeMs: number }[]): number {
  const periods = ends.flatMap((end, i) => {
    const before = ends[i - 1];
    return before && end.round === before.round + 1 ? [end.readerTimeMs - before.readerTimeMs] : [];
  });
  return median(periods);
}

const foreignUid = (n: number) => `E0BE${(n + 0x10000).toString(16).slice(1).toUpperCase()}`;

/** Hand `n`'s cards for seats 1, 2 and 4: tags of deck A, other cards from one hand to the next. */
const deckACards = (n: number) =>
  [0, 1, 2].map((k) => scenarioUid('A', FACES[(3 * n + k) % FACES.length] as (typeof FACES)[number]));

/** The first update `wanted` accepts from now on. */
function updateWhere(
  controller: Controller,
  what: string,
  wanted: (update: TableUpdate) => boolean,
): Promise<TableUpdate> {
  const late = () => throwError(() => new Error(`no ${what} within ${LATE_MS} ms`));
  return firstValueFrom(controller.updates.pipe(filter(wanted), timeout({ first: LATE_MS, with: late })));
}

const incidentsOf = ({ outputs }: TableUpdate) =>
  outputs.filter((output): output is IncidentReport => output.kind === 'incident');

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
  stamps: Stamps;
  screen: Screen;
}

/** A controller, its reader board on a PTY of its own and a screen, in `dir`; undone by `undo`. */
async function startRig(
  dir: string,
  undo: (() => Promise<unknown>)[],
  { reportRounds }: { reportRounds: boolean },
): Promise<Rig> {
  await mkdir(dir, { recursive: true });
  const pty = await startPtyPair(dir, undo);
  const port = await openDevicePort(pty.device, undo);
  const stamps = stampWrites(port);
  const reader = new SimulatedReader({
    antennas: TEN_SEAT_ANTENNAS,
    inventoryPeriodMs: PERIOD_MS,
    missProbability: 0,
    reportRounds,
  });
  reader.start(port);
  undo.push(async () => reader.stop());
  const config = parseConfig({
    table: { id: 'bench', orderWindowMs: WINDOW_MS },
    http: { port: 0 },
    mqtt: { embedded: { port: 0 } },
    devices: {
      rfid: [{ id: 'rfid-1', link: { path: pty.host }, inventoryPeriodMs: PERIOD_MS }],
    },
    journal: { path: join(dir, 'journal.db') },
  });
  // Logged as on a table (info), into nothing: the cost stays, the output goes.
  const log = pino({ level: config.log.level }, destination({ dest: '/dev/null', sync: true }));
  const controller = await startController(config, 'bench', log);
  undo.push(() => controller.close());
  const screen = await openScreen(`${controller.httpUrl.replace(/^http/, 'ws')}/ws`);
  undo.push(() => screen.close());
  while (controller.health.report().devices.some((device) => device.status !== 'online')) await sleep(20);
  return { controller, reader, stamps, screen };
}

/** One hand: the alert's latency from its card's frame, or null when it was not raised at that read. */
async function foreignCardHand(
  n: number,
  { controller, reader, stamps, screen }: Rig,
): Promise<number | null> {
  const card = foreignUid(n);
  controller.input({ type: 'hand.start', t: Date.now(), ...HAND });
  const ruled = updateWhere(controller, 'FOREIGN_CARD', (update) =>
    incidentsOf(update).some((incident) => incident.incident === 'FOREIGN_CARD'),
  );
  stamps.arm(card);
  reader.place(card, antennaOf(1));
  const { event, snapshot } = await ruled;
  const alert = await screen.next(stateOf(snapshot), LATE_MS);
  reader.remove(card);
  // The card off the table and the window past before the next hand, so no read of it joins that one.
  await sleep(WINDOW_MS + PERIOD_MS);
  const written = stamps.writtenAt();
  const atItsRead = event.type === 'card.seen' && event.uid === card;
  return atItsRead && written !== undefined ? alert.at - written : null;
}

/** Lays `uid` on `seat`'s antenna: its read, once croupier has journaled it. */
async function pitch({ controller, reader }: Rig, uid: string, seat: number): Promise<CardSeen> {
  const seen = updateWhere(
    controller,
    `read of ${uid}`,
    ({ event }) => event.type === 'card.seen' && event.uid === uid,
  );
  reader.place(uid, antennaOf(seat));
  return (await seen).event as CardSeen;
}

/**
 * One hand dealt seat 1, seat 2, then seat 4: the alert's latency from seat 4's frame, or why it is not
 * timed (another incident, or one not about seat 4's read).
 */
async function skippedSeatHand(n: number, rig: Rig): Promise<number | string> {
  const { controller, reader, stamps, screen } = rig;
  const cards = deckACards(n);
  const [first, second, fourth] = cards as [string, string, string];
  const placed: string[] = [];
  const deal = (uid: string, seat: number) => {
    placed.push(uid);
    return pitch(rig, uid, seat);
  };
  const incidents: IncidentReport[] = [];
  const watch = controller.updates.subscribe((update) => incidents.push(...incidentsOf(update)));
  try {
    controller.input({ type: 'hand.start', t: Date.now(), ...HAND });
    await deal(first, 1);
    await sleep(PITCH_GAP_MS);
    await deal(second, 2);
    await sleep(PITCH_GAP_MS);
    const ruled = updateWhere(controller, 'SEAT_SKIPPED', (update) =>
      incidentsOf(update).some((incident) => incident.incident === 'SEAT_SKIPPED'),
    );
    stamps.arm(fourth);
    const seen = await deal(fourth, 4);
    const update = await ruled;
    const alert = await screen.next(stateOf(update.snapshot), LATE_MS);
    const written = stamps.writtenAt();
    const [incident, ...others] = incidents;
    if (others.length > 0) return `incidents ${incidents.map((i) => i.incident).join(', ')}`;
    if (incident?.at !== seen.seq) return `SEAT_SKIPPED at event ${incident?.at}, seat 4's read ${seen.seq}`;
    if (incident.ruling !== 'MISDEAL' || incident.seats.join() !== '3')
      return `SEAT_SKIPPED ruled ${incident.ruling} for seats ${incident.seats.join()}`;
    if (written === undefined) return "no write of seat 4's read";
    return alert.at - written;
  } finally {
    watch.unsubscribe();
    // The cards off the table, and a round without them read, before the next hand: no read of them
    // joins it. (Every read of this hand was judged by the time its alert came out.)
    for (const uid of placed) reader.remove(uid);
    await sleep(PERIOD_MS);
  }
}

/** Skipped-seat hands on `rig`: the latencies timed and the hands not timed. */
async function skippedSeatHands(rig: Rig, what: string): Promise<{ latencies: number[]; misjudged: number }> {
  progress(`e2e: ${CYCLE_WARM_UP + CYCLE_SAMPLES} hands, seat 3 skipped in each, ${what}`);
  const latencies: number[] = [];
  let misjudged = 0;
  for (let n = 0; n < CYCLE_WARM_UP + CYCLE_SAMPLES; n++) {
    const result = await skippedSeatHand(n, rig);
    if (n < CYCLE_WARM_UP) continue;
    if (typeof result === 'number') latencies.push(result);
    else {
      if (misjudged === 0) progress(`e2e: hand ${n} not timed: ${result}`);
      misjudged++;
    }
  }
  return { latencies, misjudged };
}

async function undoAll(undo: (() => Promise<unknown>)[]): Promise<void> {
  for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
}

benchmark(async () => {
  requireSocat('the e2e benchmark');
  const cleanup: (() => Promise<unknown>)[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-e2e-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const rigUndo: (() => Promise<unknown>)[] = [];
  try {
    progress('e2e: floors');
    const floors = await measureFloors(dir, cleanup);

    const rig = await startRig(join(dir, 'rounds'), rigUndo, { reportRounds: true });
    progress(`e2e: ${CARD_WARM_UP + CARD_SAMPLES} hands, a card of another deck in each`);
    const card: number[] = [];
    let notAtRead = 0;
    for (let n = 0; n < CARD_WARM_UP + CARD_SAMPLES; n++) {
      const latency = await foreignCardHand(n, rig);
      if (n < CARD_WARM_UP) continue;
      if (latency === null) notAtRead++;
      else card.push(latency);
    }
    const cycle = await skippedSeatHands(rig, 'a board that reports its rounds');
    const round = roundPeriod(rig.stamps.roundEnds());
    await undoAll(rigUndo);

    const timed = await startRig(join(dir, 'no-rounds'), rigUndo, { reportRounds: false });
    const noRounds = await skippedSeatHands(timed, 'a board that does not report its rounds');
    await undoAll(rigUndo);

    const floor = sums(floors.pty, floors.sqlite, floors.websocket);
    const p50 = percentile(card, 50);
    const floorP50 = percentile(floor, 50);
    return {
      alert_after_card_p50_ms: rounded(p50),
      alert_after_card_p99_ms: rounded(percentile(card, 99)),
      alert_floor_p50_ms: rounded(floorP50),
      alert_floor_p99_ms: rounded(percentile(floor, 99)),
      alert_after_card_vs_floor_p50: rounded(p50 / floorP50),
      pty_p50_ms: rounded(percentile(floors.pty, 50)),
      sqlite_full_insert_p50_ms: rounded(percentile(floors.sqlite, 50)),
      websocket_p50_ms: rounded(percentile(floors.websocket, 50)),
      alert_after_card_samples: card.length,
      alert_after_card_not_at_read: notAtRead,
      alert_after_cycle_p50_ms: rounded(percentile(cycle.latencies, 50)),
      alert_after_cycle_p99_ms: rounded(percentile(cycle.latencies, 99)),
      reader_round_ms: rounded(round),
      alert_after_cycle_samples: cycle.latencies.length,
      alert_after_cycle_misjudged: cycle.misjudged,
      alert_after_cycle_no_rounds_p50_ms: rounded(percentile(noRounds.latencies, 50)),
      alert_after_cycle_no_rounds_p99_ms: rounded(percentile(noRounds.latencies, 99)),
      alert_after_cycle_no_rounds_samples: noRounds.latencies.length,
      alert_after_cycle_no_rounds_misjudged: noRounds.misjudged,
    };
  } finally {
    await undoAll(rigUndo);
    await undoAll(cleanup);
  }
});
