import { Subject } from 'rxjs';
import type { LinkState } from '../devices/device-status.js';
import { rfidReader } from '../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../devices/rfid-reader/manifest.js';
import { encodeMessage } from '../firmware-bridge/codec.js';
import type { Message } from '../firmware-bridge/messages.js';
import { mulberry32 } from '../simulators/random.js';
import type { Zone } from '../src/domain/zones.js';
import { benchmark, progress } from './lib/child.js';
import { rounded } from './lib/stats.js';

/**
 * reads_per_s_no_loss: a reader board's byte stream, made in advance, through the RFID driver and its
 * presence debouncing as fast as they take it: 20 antennas read every round with the cards on them,
 * read noise, peeks, cards slid, moved and lifted off. Every state change the stream implies must come
 * out of the driver, and nothing else: the figure is the rate only when none is lost or made up.
 */

const ANTENNAS: Zone[] = [
  ...Array.from({ length: 10 }, (_, i): Zone => `seat:${i + 1}`),
  ...Array<Zone>(5).fill('board'),
  ...Array<Zone>(2).fill('burn'),
  ...Array<Zone>(3).fill('muck'),
];
const config = parseRfidReaderConfig({
  id: 'rfid-bench',
  antennas: Object.fromEntries(ANTENNAS.map((zone, index) => [String(index), zone])),
});
const PERIOD_MS = config.inventoryPeriodMs;
const ROUNDS = 4000;
const TAGS = 60;
const HEARTBEAT_ROUNDS = Math.round(1000 / PERIOD_MS);
/** Per tag and round: a read missed (never twice running), and something done with the card. */
const MISS = 0.02;
const HANDLED = 0.004;
/** A card lifted off for this many rounds or more is gone (past presenceTimeoutMs), and seen again after. */
const LIFT_ROUNDS = Math.ceil((config.presenceTimeoutMs + config.goneGraceMs) / PERIOD_MS);
/** The USB serial link delivers bytes in chunks of about this size. */
const CHUNK_BYTES = 4096;

interface Tag {
  uid: string;
  antenna: number;
  /** Rounds it is still off the table (a peek: one; lifted: LIFT_ROUNDS and more). */
  away: number;
  lifted: boolean;
  missed: boolean;
  /** Reader time of its last read in each zone. */
  lastRead: Map<Zone, number>;
}

interface Night {
  stream: Buffer;
  reads: number;
  /** Per tag, the changes the driver must report, in order (`seen seat:3`, `gone board`). */
  expected: Map<string, string[]>;
}

/** The board's frames for the whole night, and what they mean. */
function night(seed: number): Night {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const frames: Buffer[] = [];
  let sent = 0;
  const send = (message: Message) => frames.push(encodeMessage(message, sent++ & 0xffff));
  const expected = new Map<string, string[]>();
  const change = (tag: Tag, kind: 'seen' | 'gone') =>
    expected.get(tag.uid)?.push(`${kind} ${ANTENNAS[tag.antenna]}`);
  const antennas = ANTENNAS.map((zone, index) => ({ index, label: zone }));
  send({ type: 'hello', kind: 'rfid-reader', firmware: '1.0.0', serial: 'BENCH-1', antennas });
  send({ type: 'health', status: 'ok', code: 0, detail: '' });

  const tags: Tag[] = Array.from({ length: TAGS }, (_, i) => ({
    uid: `E0040150${(0x10000 + i).toString(16).slice(1).toUpperCase()}`,
    antenna: Math.floor(random() * ANTENNAS.length),
    away: 0,
    lifted: false,
    missed: false,
    lastRead: new Map(),
  }));
  for (const tag of tags) {
    expected.set(tag.uid, []);
    change(tag, 'seen');
  }
  /** Another antenna of its zone (slid), or one of a zone it has not lain in lately (not a cross-read). */
  const moveTo = (tag: Tag, now: number): number => {
    const zone = ANTENNAS[tag.antenna] as Zone;
    const recent = (other: Zone) =>
      now - (tag.lastRead.get(other) ?? Number.NEGATIVE_INFINITY) < 2 * config.presenceTimeoutMs;
    return pick(ANTENNAS.flatMap((other, index) => (other === zone || !recent(other) ? [index] : [])));
  };
  const handle = (tag: Tag, now: number) => {
    const what = random();
    if (what < 0.5) {
      const from = ANTENNAS[tag.antenna];
      tag.antenna = moveTo(tag, now);
      if (ANTENNAS[tag.antenna] !== from) change(tag, 'seen');
    } else if (what < 0.8) {
      change(tag, 'gone');
      tag.away = LIFT_ROUNDS + Math.floor(random() * LIFT_ROUNDS);
      tag.lifted = true;
    } else tag.away = 1; // a peek
  };

  let reads = 0;
  const lastRound = new Map<number, Set<string>>();
  const readAntenna = (antenna: number, at: number) => {
    const read = new Set<string>();
    for (const tag of tags) {
      if (tag.antenna !== antenna || tag.away > 0) continue;
      // One missed round never ends a card; two running could, with the board's TAG_GONE.
      tag.missed = !tag.missed && random() < MISS;
      if (tag.missed) continue;
      read.add(tag.uid);
      tag.lastRead.set(ANTENNAS[antenna] as Zone, at);
      send({ type: 'tag-read', antenna, uid: tag.uid, rssi: -50, readerTimeMs: at });
      reads++;
    }
    for (const uid of lastRound.get(antenna) ?? []) {
      if (!read.has(uid)) send({ type: 'tag-gone', antenna, uid, readerTimeMs: at });
    }
    lastRound.set(antenna, read);
  };
  /** The antennas one after the other, each in its slot of the round. */
  const readRound = (start: number) => {
    for (let antenna = 0; antenna < ANTENNAS.length; antenna++) {
      readAntenna(antenna, start + Math.floor((antenna * PERIOD_MS) / ANTENNAS.length));
    }
  };
  const heartbeat = (round: number) =>
    send({ type: 'heartbeat', uptimeMs: (round + 1) * PERIOD_MS - 1, framesSent: sent + 1 });

  for (let round = 0; round < ROUNDS; round++) {
    const start = round * PERIOD_MS;
    for (const tag of tags) {
      if (tag.away > 0 && --tag.away === 0 && tag.lifted) {
        tag.lifted = false;
        tag.lastRead.clear();
        tag.antenna = Math.floor(random() * ANTENNAS.length);
        change(tag, 'seen');
      } else if (tag.away === 0 && round > 0 && random() < HANDLED) handle(tag, start);
    }
    readRound(start);
    if (round % HEARTBEAT_ROUNDS === HEARTBEAT_ROUNDS - 1) heartbeat(round);
  }
  // The table is cleared: every card on it is gone once its timeout has passed.
  for (const tag of tags) if (!tag.lifted) change(tag, 'gone');
  for (const tag of tags) tag.away = Number.POSITIVE_INFINITY;
  for (let round = ROUNDS; round < ROUNDS + 2 * LIFT_ROUNDS; round++) {
    readRound(round * PERIOD_MS);
    heartbeat(round);
  }
  return { stream: Buffer.concat(frames), reads, expected };
}

/** Feeds the stream to a fresh driver in link-sized chunks; the changes it reported per tag, and the time. */
function drive(stream: Buffer): { changes: Map<string, string[]>; elapsedMs: number } {
  const state = new Subject<LinkState>();
  const bytes = new Subject<Uint8Array>();
  const reader = rfidReader({ state, bytes, write: () => undefined }, config);
  const changes = new Map<string, string[]>();
  const refused: string[] = [];
  const subscription = reader.events.subscribe((event) => {
    if (event.kind === 'rejected') refused.push(event.reason);
    if (event.kind === 'tag.seen' || event.kind === 'tag.gone') {
      const list = changes.get(event.uid) ?? [];
      list.push(`${event.kind.slice(4)} ${event.zone}`);
      changes.set(event.uid, list);
    }
  });
  state.next({ up: true });
  const started = performance.now();
  for (let offset = 0; offset < stream.length; offset += CHUNK_BYTES) {
    bytes.next(stream.subarray(offset, offset + CHUNK_BYTES));
  }
  const elapsedMs = performance.now() - started;
  subscription.unsubscribe();
  if (refused.length > 0) throw new Error(`the driver refused the benchmark's frames: ${refused[0]}`);
  return { changes, elapsedMs };
}

/** Length of the longest common subsequence: the changes reported in their right order. */
function common(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const next = [0];
    for (const [j, y] of b.entries()) {
      next.push(x === y ? (row[j] as number) + 1 : Math.max(row[j + 1] as number, next[j] as number));
    }
    row = next;
  }
  return row[b.length] as number;
}

benchmark(async () => {
  const { stream, reads, expected } = night(6);
  progress(`reads: ${reads} tag reads, ${(stream.length / 2 ** 20).toFixed(1)} MB of frames`);
  drive(stream); // warm-up
  const { changes, elapsedMs } = drive(stream);
  let matched = 0;
  let wanted = 0;
  let reported = 0;
  for (const [uid, list] of expected) {
    const got = changes.get(uid) ?? [];
    matched += common(list, got);
    wanted += list.length;
    reported += got.length;
  }
  const lost = wanted - matched;
  const spurious = reported - matched;
  if (lost + spurious > 0) progress(`reads: ${lost} state changes lost, ${spurious} made up`);
  return {
    reads_per_s_no_loss: lost + spurious === 0 ? rounded((reads / elapsedMs) * 1000) : null,
    reads_changes_expected: wanted,
    reads_changes_lost: lost + spurious,
  };
});
