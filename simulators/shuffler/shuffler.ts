import type { Duplex } from 'node:stream';
import { LineReader } from '../../devices/shuffler/lines.js';
import {
  encodeLine,
  type MessageOf,
  PROTOCOL_VERSION,
  type ShufflerMessage,
} from '../../devices/shuffler/protocol.js';
import { DeviceLine } from '../device-line.js';
import { mulberry32 } from '../random.js';
import { type Cancel, realScheduler, type Scheduler } from '../rfid-reader/scheduler.js';

/**
 * A simulated automatic shuffler with card recognition, speaking the shuffler line protocol
 * (devices/shuffler/PROTOCOL.md) on any byte stream. It holds the cards put in it, shuffles them over
 * simulated time when told to, counts and recognises them against the decks it knows, hands the deck out,
 * and takes faults on demand. It is a peer, not a mock: croupier sees nothing a real one would not send.
 */

/** What a STATUS line says: the state and the card recognition's verdict on the deck held. */
export type ShufflerVerdict = Omit<MessageOf<'STATUS'>, 'verb' | 'gen'>;
const FAULTS = ['jam', 'door-open', 'error'] as const;
export type ShufflerFault = (typeof FAULTS)[number];

export interface SimulatedShufflerOptions {
  /** The decks its card recognition knows: deck id → tag UIDs. */
  decks?: Readonly<Record<string, readonly string[]>>;
  serial?: string;
  firmware?: string;
  /** How long a shuffle takes (default 4000 ms). */
  shuffleMs?: number;
  heartbeatMs?: number;
  /** Sends the shuffled order with a ready deck (default false: few shufflers report it). */
  reportOrder?: boolean;
  /** Seeds every random choice: the shuffle, garbage bytes, corrupted lines. */
  seed?: number;
  scheduler?: Scheduler;
}

interface Card {
  uid: string;
  faceUp: boolean;
}

const UID = /^(?:[0-9A-F]{2}){4,10}$/;
const IDLE: ShufflerVerdict = { state: 'idle', faceup: [], missing: [], extra: [] };
const REFUSALS: Partial<Record<ShufflerVerdict['state'], string>> = {
  shuffling: 'busy',
  jam: 'jam',
  'door-open': 'door-open',
  error: 'error',
};

export class SimulatedShuffler {
  readonly #scheduler: Scheduler;
  readonly #decks: ReadonlyMap<string, readonly string[]>;
  readonly #serial: string;
  readonly #firmware: string;
  readonly #shuffleMs: number;
  readonly #heartbeatMs: number;
  readonly #reportOrder: boolean;
  /** The shuffle and line faults draw from separate streams, so injecting a fault leaves the order alone. */
  readonly #shuffleNoise: () => number;
  readonly #lineNoise: () => number;

  readonly #line = new DeviceLine();
  #running = false;
  #silent = false;
  #bootAt = 0;
  #tray: Card[] = [];
  #verdict: ShufflerVerdict = IDLE;
  #gen = 0;
  #handedOut: string[] = [];
  #corruptProbability = 0;
  #linesRefused = 0;
  #heartbeat: Cancel | null = null;
  #shuffle: Cancel | null = null;

  constructor(options: SimulatedShufflerOptions = {}) {
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#decks = new Map(
      Object.entries(options.decks ?? {}).map(([deck, uids]) => [deck, uids.map((uid) => tagUid(uid))]),
    );
    this.#serial = options.serial ?? 'SIM-SHUF-0001';
    this.#firmware = options.firmware ?? '1.0.0';
    this.#shuffleMs = options.shuffleMs ?? 4000;
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    this.#reportOrder = options.reportOrder ?? false;
    const seed = options.seed ?? 1;
    this.#shuffleNoise = mulberry32(seed);
    this.#lineNoise = mulberry32(seed ^ 0x9e3779b9);
    // A bad serial or firmware fails here, not at the first HELLO.
    encodeLine(this.#hello());
  }

  /**
   * Powers the shuffler up on `line`: HELLO, STATUS, then a heartbeat every second. After `stop()` this is
   * a reboot: a shuffle in progress or a fault is gone, the cards inside stay and wait to be shuffled.
   */
  start(line: Duplex): void {
    if (this.#running) throw new Error('the shuffler is already running');
    this.#running = true;
    this.#silent = false;
    this.#bootAt = this.#scheduler.now();
    this.#gen = 0;
    this.#verdict = IDLE;
    this.attach(line);
    this.#introduce();
    this.#beat();
  }

  /** Plugs the shuffler into another line (a replug) without rebooting. */
  attach(line: Duplex): void {
    const lines = new LineReader();
    const onData = (chunk: Buffer) => {
      // A hung firmware reads nothing.
      if (this.#silent) return;
      for (const parsed of lines.push(chunk)) {
        if (parsed.ok) this.#receive(parsed.message);
        else this.#linesRefused++;
      }
    };
    this.#line.attach(line, onData);
  }

  /** Powers the shuffler off: no timer is left; the line stays open for its owner to close. */
  stop(): void {
    this.#heartbeat?.();
    this.#heartbeat = null;
    this.#stopShuffle();
    this.#line.detach();
    this.#running = false;
  }

  /** The dealer puts cards in (a deck, maybe with a card short, an extra one, or some face up). */
  load(uids: readonly string[], options: { faceUp?: readonly string[] } = {}): void {
    if (this.#verdict.state === 'shuffling')
      throw new Error('cards cannot go in while the shuffler shuffles');
    const faceUp = new Set(options.faceUp?.map((uid) => tagUid(uid)));
    this.#tray.push(...uids.map((uid) => tagUid(uid)).map((uid) => ({ uid, faceUp: faceUp.has(uid) })));
    // Cards added to a verified deck make it unverified.
    if (this.#verdict.state === 'ready') this.#report(IDLE);
  }

  /** The deck the last EJECT handed out, top card first. */
  get handedOut(): readonly string[] {
    return this.#handedOut;
  }

  /** Cards inside the shuffler. */
  get count(): number {
    return this.#tray.length;
  }

  /** Host lines it could not use (bad checksum, malformed, not a command). */
  get linesRefused(): number {
    return this.#linesRefused;
  }

  /** Stops with a jam, an open door or an error: a shuffle in progress is abandoned, the cards stay. */
  fault(fault: ShufflerFault, code?: string): void {
    this.#stopShuffle();
    this.#report({ ...IDLE, state: fault, code });
  }

  /** The jam is cleared, the door closed, the error reset: the cards inside wait to be shuffled again. */
  clearFault(): void {
    if ((FAULTS as readonly string[]).includes(this.#verdict.state)) this.#report(IDLE);
  }

  /** Says what it is told to, as given (scripted play): a shuffle in progress is abandoned. */
  present(verdict: ShufflerVerdict): void {
    encodeLine({ verb: 'STATUS', gen: 0, ...verdict });
    this.#stopShuffle();
    this.#report(verdict);
  }

  /** The firmware hangs: nothing is sent (no heartbeat), nothing received, until `resume()`. */
  goSilent(): void {
    this.#silent = true;
  }

  /** Back from a hang without a reboot, so no HELLO: heartbeats simply go on. */
  resume(): void {
    this.#silent = false;
  }

  /** Writes a line of `count` random bytes (no LF among them), ended like any line. */
  sendGarbage(count: number): void {
    const bytes = Buffer.alloc(count + 2);
    // 255 byte values, LF (10) left out: one garbage line, not several.
    for (let i = 0; i < count; i++) bytes[i] = (Math.floor(this.#lineNoise() * 255) + 11) % 256;
    bytes.write('\r\n', count, 'latin1');
    this.#write(bytes);
  }

  /** From now on each line sent has one character changed with probability `p`, as noise on RS-232 does. */
  corruptLines(p: number): void {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`corruption probability ${p} is not in 0-1`);
    this.#corruptProbability = p;
  }

  #hello(): ShufflerMessage {
    const fw = this.#firmware;
    return { verb: 'HELLO', kind: 'shuffler', proto: PROTOCOL_VERSION, serial: this.#serial, fw };
  }

  /** HELLO is always followed by the STATUS, as PROTOCOL.md asks. */
  #introduce(): void {
    this.#send(this.#hello());
    this.#sendStatus();
  }

  #beat(): void {
    this.#heartbeat = this.#scheduler.after(this.#heartbeatMs, () => {
      const up = Math.floor(this.#scheduler.now() - this.#bootAt) % 2 ** 32;
      this.#send({ verb: 'HB', up, gen: this.#gen });
      this.#beat();
    });
  }

  #receive(message: ShufflerMessage): void {
    switch (message.verb) {
      case 'IDENT':
        this.#send({ verb: 'ACK', id: message.id });
        return this.#introduce();
      case 'QUERY':
        this.#send({ verb: 'ACK', id: message.id });
        return this.#sendStatus();
      case 'SHUFFLE':
        return this.#answer(message.id, this.#refusal() ?? (this.#tray.length === 0 ? 'empty' : null), () =>
          this.#startShuffle(),
        );
      case 'EJECT': {
        const refusal = this.#refusal() ?? (this.#verdict.state === 'ready' ? null : 'not-ready');
        return this.#answer(message.id, refusal, () => this.#eject());
      }
      default:
        this.#linesRefused++;
    }
  }

  /** Why the shuffler cannot act now, whatever the command. */
  #refusal(): string | null {
    return REFUSALS[this.#verdict.state] ?? null;
  }

  #answer(id: number, refusal: string | null, act: () => void): void {
    if (refusal !== null) return this.#send({ verb: 'NAK', id, reason: refusal });
    this.#send({ verb: 'ACK', id });
    act();
  }

  #startShuffle(): void {
    this.#report({ ...IDLE, state: 'shuffling' });
    this.#shuffle = this.#scheduler.after(this.#shuffleMs, () => {
      this.#shuffle = null;
      const tray = this.#tray;
      // Fisher–Yates, seeded.
      for (let i = tray.length - 1; i > 0; i--) {
        const j = Math.floor(this.#shuffleNoise() * (i + 1));
        [tray[i], tray[j]] = [tray[j] as Card, tray[i] as Card];
      }
      this.#report(this.#recognise());
    });
  }

  #stopShuffle(): void {
    this.#shuffle?.();
    this.#shuffle = null;
  }

  #eject(): void {
    this.#handedOut = this.#tray.map((card) => card.uid);
    this.#tray = [];
    this.#report(IDLE);
  }

  /** Counts the cards and names, against the known deck most of them belong to, the missing and extra ones. */
  #recognise(): ShufflerVerdict {
    const uids = this.#tray.map((card) => card.uid);
    const inTray = new Set(uids);
    let deck: string | undefined;
    let best = 0;
    for (const [id, deckUids] of this.#decks) {
      const present = deckUids.filter((uid) => inTray.has(uid)).length;
      if (present > best) [deck, best] = [id, present];
    }
    const known = new Set(deck === undefined ? [] : this.#decks.get(deck));
    const seen = new Set<string>();
    const extra = uids.filter((uid) => {
      const odd = !known.has(uid) || seen.has(uid);
      seen.add(uid);
      return odd;
    });
    return {
      state: 'ready',
      deck,
      count: uids.length,
      faceup: this.#tray.filter((card) => card.faceUp).map((card) => card.uid),
      missing: [...known].filter((uid) => !seen.has(uid)),
      extra,
      order: this.#reportOrder ? uids : undefined,
    };
  }

  #report(verdict: ShufflerVerdict): void {
    this.#verdict = verdict;
    this.#gen = (this.#gen + 1) & 0xffff;
    this.#sendStatus();
  }

  #sendStatus(): void {
    this.#send({ verb: 'STATUS', gen: this.#gen, ...this.#verdict });
  }

  #send(message: ShufflerMessage): void {
    if (this.#silent) return;
    const line = encodeLine(message);
    this.#write(Buffer.from(this.#corruptProbability > 0 ? this.#corrupt(line) : line, 'latin1'));
  }

  #corrupt(line: string): string {
    if (this.#lineNoise() >= this.#corruptProbability) return line;
    const at = Math.floor(this.#lineNoise() * (line.length - 2));
    const changed = String.fromCharCode(line.charCodeAt(at) === 0x41 ? 0x42 : 0x41);
    return `${line.slice(0, at)}${changed}${line.slice(at + 1)}`;
  }

  #write(bytes: Buffer): void {
    this.#line.write(bytes);
  }
}

function tagUid(uid: string): string {
  const tag = uid.toUpperCase();
  if (!UID.test(tag)) throw new RangeError(`"${uid}" is not a tag UID (4 to 10 bytes in hex)`);
  return tag;
}
