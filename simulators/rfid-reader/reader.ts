import type { Duplex } from 'node:stream';
import { type DecodeResult, encodeMessage, FrameDecoder } from '../../firmware-bridge/codec.js';
import { type Message, type MessageOf, messageSchema } from '../../firmware-bridge/messages.js';
import { DeviceLine } from '../device-line.js';
import { mulberry32 } from '../random.js';
import { type Cancel, realScheduler, type Scheduler } from './scheduler.js';

/**
 * A simulated multiplexed HF reader board: it speaks the wire protocol (firmware-bridge/PROTOCOL.md) on
 * any byte stream, models tags lying on its antennas and reads them with seeded noise, and takes faults
 * on demand. It is a peer, not a mock: croupier sees nothing it would not see from a real board.
 */

export type AntennaMap = MessageOf<'hello'>['antennas'];

export interface SimulatedReaderOptions {
  /** Antenna index → label, as the board is flashed; croupier's config decides the zones. */
  antennas: AntennaMap;
  serial?: string;
  firmware?: string;
  /** Time between the starts of two inventory rounds over all antennas (default 300 ms). */
  inventoryPeriodMs?: number;
  heartbeatMs?: number;
  /** Seeds every random choice: read noise, RSSI, garbage, dropped frames. */
  seed?: number;
  /** Chance that a present tag goes unread in a round (default 0.02). */
  missProbability?: number;
  /** Further chance, per tag, when several tags share an antenna and collide (default 0.15). */
  stackedMissProbability?: number;
  /** Sends ROUND_END after each inventory round (default true); false plays a board of revision 1.0. */
  reportRounds?: boolean;
  scheduler?: Scheduler;
}

/** The health a HEALTH frame reports: `ok` unless `fault()` was called. */
type Health = Omit<MessageOf<'health'>, 'type'>;

const HEALTHY: Health = { status: 'ok', code: 0, detail: '' };
const UID = /^(?:[0-9A-F]{2}){4,10}$/;
const U32 = 2 ** 32;

export class SimulatedReader {
  readonly #scheduler: Scheduler;
  readonly #serial: string;
  readonly #firmware: string;
  readonly #heartbeatMs: number;
  readonly #missProbability: number;
  readonly #stackedMissProbability: number;
  readonly #reportRounds: boolean;
  /** Read noise and line faults draw from separate streams, so injecting a fault leaves the reads alone. */
  readonly #noise: () => number;
  readonly #lineNoise: () => number;
  #antennas: AntennaMap;
  #periodMs: number;

  readonly #line = new DeviceLine();
  #running = false;
  #offline = false;
  #health: Health = HEALTHY;
  #bootAt = 0;
  #nextSeq = 0;
  #framesSent = 0;
  #framesDropped = 0;
  #dropProbability = 0;
  #heartbeat: Cancel | null = null;
  #inventory: Cancel | null = null;
  /** Rounds over since boot; the one under way carries this number (mod 2³²) in its ROUND_END. */
  #roundsEnded = 0;
  /** Antennas read since the last ROUND_END: a round cut short by a fault or hang is finished by the next. */
  readonly #roundAntennas = new Set<number>();
  /** Where each tag lies: UID → antenna index. */
  readonly #tags = new Map<string, number>();
  /** UIDs read on each antenna in its last round, to tell which ones stopped answering. */
  readonly #lastRead = new Map<number, Set<string>>();

  constructor(options: SimulatedReaderOptions) {
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#serial = options.serial ?? 'SIM-RFID-0001';
    this.#firmware = options.firmware ?? '1.0.0';
    this.#antennas = options.antennas;
    this.#periodMs = options.inventoryPeriodMs ?? 300;
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    this.#missProbability = options.missProbability ?? 0.02;
    this.#stackedMissProbability = options.stackedMissProbability ?? 0.15;
    this.#reportRounds = options.reportRounds ?? true;
    const seed = options.seed ?? 1;
    this.#noise = mulberry32(seed);
    this.#lineNoise = mulberry32(seed ^ 0x9e3779b9);
    // A bad serial, firmware or antenna map fails here, not at the first HELLO.
    messageSchema.parse(this.#hello());
    messageSchema.parse({ type: 'command', command: 'set-inventory-period', periodMs: this.#periodMs });
  }

  /**
   * Powers the board up on `line`: HELLO, HEALTH, then heartbeats and inventory rounds. After `stop()` this
   * is a reboot: uptime and sequence start from 0, a hang or fault is gone; the tags still lie where they lay.
   */
  start(line: Duplex): void {
    if (this.#running) throw new Error('the reader is already running');
    this.#running = true;
    this.#offline = false;
    this.#health = HEALTHY;
    this.#bootAt = this.#scheduler.now();
    this.#nextSeq = 0;
    this.#framesSent = 0;
    this.#roundsEnded = 0;
    this.#roundAntennas.clear();
    this.#lastRead.clear();
    this.attach(line);
    this.#introduce();
    this.#resume();
  }

  /** Plugs the board into another line (a replug) without rebooting: its clock, sequence and tags go on. */
  attach(line: Duplex): void {
    const decoder = new FrameDecoder();
    const onData = (chunk: Buffer) => {
      // A hung firmware reads nothing.
      if (this.#offline) return;
      for (const result of decoder.push(chunk)) this.#receive(result);
    };
    this.#line.attach(line, onData);
  }

  /** Powers the board off: no timer is left; the line stays open for its owner to close. */
  stop(): void {
    this.#pause();
    this.#line.detach();
    this.#running = false;
  }

  /** Lays a tag on an antenna, taking it off any other antenna it lay on. */
  place(uid: string, antenna: number): void {
    const tag = uid.toUpperCase();
    if (!UID.test(tag)) throw new RangeError(`"${uid}" is not a tag UID (4 to 10 bytes in hex)`);
    if (!Number.isInteger(antenna) || antenna < 0 || antenna > 0xff) {
      throw new RangeError(`antenna ${antenna} is not an index 0-255`);
    }
    this.#tags.set(tag, antenna);
  }

  remove(uid: string): void {
    this.#tags.delete(uid.toUpperCase());
  }

  /** The firmware hangs: nothing is sent (no heartbeat), nothing received, until `goOnline()`. */
  goOffline(): void {
    this.#offline = true;
    this.#pause();
  }

  /** The firmware comes back from a hang without a reboot, so no HELLO: the heartbeats simply resume. */
  goOnline(): void {
    if (!this.#offline) return;
    this.#offline = false;
    if (this.#running) this.#resume();
  }

  /** Writes `count` random bytes on the line, between two frames. */
  sendGarbage(count: number): void {
    const bytes = Buffer.alloc(count);
    for (let i = 0; i < count; i++) bytes[i] = Math.floor(this.#lineNoise() * 256);
    this.#write(bytes);
  }

  /** From now on each frame is lost on the line with probability `p`; its sequence number is used up. */
  dropFrames(p: number): void {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`drop probability ${p} is not in 0-1`);
    this.#dropProbability = p;
  }

  /** Reports a fault in HEALTH and stops reading tags; settings commands are NACKed `fault`. */
  fault(detail: string, code = 1): void {
    this.#setHealth({ status: 'fault', code, detail });
    this.#stopInventory();
  }

  clearFault(): void {
    if (this.#health.status === 'ok') return;
    this.#setHealth(HEALTHY);
    if (this.#running && !this.#offline) this.#startRound();
  }

  /** Frames the board has numbered since it booted, lost ones included (HEARTBEAT's `framesSent`). */
  get framesSent(): number {
    return this.#framesSent;
  }

  /** Frames `dropFrames` lost on the line, over all boots. */
  get framesDropped(): number {
    return this.#framesDropped;
  }

  /** Inventory rounds over since the board booted, reported or not. */
  get rounds(): number {
    return this.#roundsEnded;
  }

  #resume(): void {
    this.#heartbeat = this.#every(this.#heartbeatMs, () => this.#sendHeartbeat());
    if (this.#health.status !== 'fault') this.#startRound();
  }

  #pause(): void {
    this.#heartbeat?.();
    this.#heartbeat = null;
    this.#stopInventory();
  }

  #stopInventory(): void {
    this.#inventory?.();
    this.#inventory = null;
  }

  #every(ms: number, task: () => void): Cancel {
    const tick = (): void => {
      cancel = this.#scheduler.after(ms, tick);
      task();
    };
    let cancel = this.#scheduler.after(ms, tick);
    return () => cancel();
  }

  #uptime(): number {
    return Math.floor(this.#scheduler.now() - this.#bootAt) % U32;
  }

  #hello(): Message {
    return {
      type: 'hello',
      kind: 'rfid-reader',
      firmware: this.#firmware,
      serial: this.#serial,
      antennas: this.#antennas,
    };
  }

  /** HELLO, then HEALTH once after it, as PROTOCOL.md asks. */
  #introduce(): void {
    this.#send(this.#hello());
    this.#send({ type: 'health', ...this.#health });
  }

  #setHealth(health: Health): void {
    this.#health = health;
    this.#send({ type: 'health', ...health });
  }

  #sendHeartbeat(): void {
    this.#send({ type: 'heartbeat', uptimeMs: this.#uptime(), framesSent: (this.#framesSent + 1) % U32 });
  }

  /**
   * One inventory round: the antennas in index order, each in its own slot of the period, so a card laid
   * on a low antenna just after its slot is reported after a card laid later on a higher antenna. The
   * round ends with the last antenna's reads, so its ROUND_END follows every read of it and no other.
   */
  #startRound(): void {
    this.#stopInventory();
    const start = this.#scheduler.now();
    const period = this.#periodMs;
    const antennas = this.#antennas.map((antenna) => antenna.index).sort((a, b) => a - b);
    const slot = (position: number): void => {
      const antenna = antennas[position];
      if (antenna !== undefined) {
        this.#readAntenna(antenna);
        this.#roundAntennas.add(antenna);
      }
      const next = position + 1;
      if (next >= antennas.length) this.#endRound();
      const at =
        next < antennas.length ? start + Math.floor((next * period) / antennas.length) : start + period;
      const delay = Math.max(0, at - this.#scheduler.now());
      this.#inventory = this.#scheduler.after(delay, () =>
        next < antennas.length ? slot(next) : this.#startRound(),
      );
    };
    slot(0);
  }

  #endRound(): void {
    if (this.#reportRounds) {
      this.#send({
        type: 'round-end',
        round: this.#roundsEnded % U32,
        readerTimeMs: this.#uptime(),
        antennas: [...this.#roundAntennas].sort((a, b) => a - b),
      });
    }
    this.#roundsEnded++;
    this.#roundAntennas.clear();
  }

  #readAntenna(antenna: number): void {
    const readerTimeMs = this.#uptime();
    const lying = [...this.#tags]
      .filter(([, on]) => on === antenna)
      .map(([uid]) => uid)
      // The anticollision walk finds tags in UID order, whatever order they were laid in.
      .sort();
    const stacked = lying.length > 1;
    const miss = stacked
      ? 1 - (1 - this.#missProbability) * (1 - this.#stackedMissProbability)
      : this.#missProbability;
    const read = new Set<string>();
    for (const uid of lying) {
      const missed = this.#noise() < miss;
      // Weaker through other cards; a few dB of jitter either way.
      const rssi = Math.round(-45 - 4 * (lying.length - 1) + (this.#noise() - 0.5) * 8);
      if (missed) continue;
      read.add(uid);
      this.#send({ type: 'tag-read', antenna, uid, rssi, readerTimeMs });
    }
    for (const uid of this.#lastRead.get(antenna) ?? []) {
      if (!read.has(uid)) this.#send({ type: 'tag-gone', antenna, uid, readerTimeMs });
    }
    this.#lastRead.set(antenna, read);
  }

  #receive(result: DecodeResult): void {
    if (!result.ok) {
      // An intact COMMAND frame the board cannot make sense of is refused; noise is ignored.
      if (result.seq === undefined || !/^(bad|truncated) COMMAND payload/.test(result.reason)) return;
      const error = /unknown command/.test(result.reason) ? 'unknown-command' : 'bad-argument';
      this.#send({ type: 'nack', ackSeq: result.seq, error });
      return;
    }
    const { message, seq } = result;
    if (message.type !== 'command') return;
    const ack = (): void => this.#send({ type: 'ack', ackSeq: seq });
    switch (message.command) {
      case 'identify':
        ack();
        this.#introduce();
        return;
      case 'set-antenna-map':
      case 'set-inventory-period':
        if (this.#health.status === 'fault') {
          this.#send({ type: 'nack', ackSeq: seq, error: 'fault' });
          return;
        }
        // Both take effect from the next inventory round.
        if (message.command === 'set-antenna-map') this.#antennas = message.antennas;
        else this.#periodMs = message.periodMs;
        ack();
        return;
      case 'start-shuffle':
      case 'eject':
        this.#send({ type: 'nack', ackSeq: seq, error: 'unsupported' });
        return;
    }
  }

  #send(message: Message): void {
    if (this.#offline) return;
    const seq = this.#nextSeq;
    this.#nextSeq = (seq + 1) & 0xffff;
    this.#framesSent = (this.#framesSent + 1) % U32;
    if (this.#dropProbability > 0 && this.#lineNoise() < this.#dropProbability) {
      this.#framesDropped++;
      return;
    }
    this.#write(encodeMessage(message, seq));
  }

  #write(bytes: Buffer): void {
    this.#line.write(bytes);
  }
}
