import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import {
  type DecodeResult,
  type DecoderCounters,
  encodeMessage,
  FrameDecoder,
} from '../../firmware-bridge/codec.js';
import type { Command, Message, MessageOf } from '../../firmware-bridge/messages.js';
import type { Zone } from '../../src/domain/zones.js';
import { type ByteLink, byteLinkInputs, sessionEvents } from '../device-session.js';
import { type DeviceHealth, DeviceStatusTracker, judgeHello, type LinkState } from '../device-status.js';
import { IdentityClaims } from '../identity-claims.js';
import { type RfidReaderConfig, rfidReaderManifest } from './manifest.js';
import { type PresenceChange, PresenceTracker } from './presence.js';
import { ReaderClock } from './reader-clock.js';

export type RfidStatus = DeviceHealth;

/**
 * What the RFID reader driver reports. `t` is host time (the scheduler's clock, ms); `readerTime` the
 * board's own uptime as it sent it. Reads are stamped with the host time at which the board made
 * them (see `ReaderClock`), not the time they arrived.
 */
export type RfidEvent =
  /**
   * A tag arrived in a zone: its first read there, reported at once. `round` numbers the inventory round
   * that read it, when the board reports its rounds and none of its frames were lost since the last one.
   */
  | { kind: 'tag.seen'; zone: Zone; uid: string; readerTime: number; rssi: number; t: number; round?: number }
  /**
   * The board ended an inventory round: every read of it has been reported. `round` is the driver's
   * number for it, which only grows, across the board's reboots too.
   */
  | { kind: 'round.end'; round: number; readerTime: number; t: number }
  /** A tag left a zone: `t` is when it was judged gone, `readerTime` that of its last read there. */
  | { kind: 'tag.gone'; zone: Zone; uid: string; readerTime: number; t: number }
  /** A button puck arrived in a zone (a puck leaving says nothing about the button). */
  | { kind: 'puck.seen'; zone: Zone; uid: string; readerTime: number; t: number }
  /** The reader's status changed (or its detail did). */
  | { kind: 'status'; status: RfidStatus; detail: string; t: number }
  /** Input the driver could not use (bad frame, lost frames, refused HELLO or command, unmapped antenna). */
  | { kind: 'rejected'; reason: string; t: number };

export type { LinkState };

/** The reader board's transport. */
export type RfidLink = ByteLink;

export interface RfidCounters {
  /** Frames decoded and rejected by reason, bytes discarded, sequence gaps and frames lost. */
  frames: DecoderCounters;
  /**
   * Intact frames the driver refused: before a HELLO, from a device of another kind, from an unmapped
   * antenna, or tag reports while the reader is not online.
   */
  refused: number;
}

export interface RfidReader {
  /** Shared: every subscriber sees the same reader; subscribing opens it, the last unsubscribe closes it. */
  events: Observable<RfidEvent>;
  /** Counters of the current subscription, undefined before the first. */
  counters(): RfidCounters | undefined;
}

/**
 * The RFID reader driver: bytes from the link in, debounced tag presence and reader status out.
 * Timers (the heartbeat timeout) and the host clock come from `scheduler`: a `TestScheduler` or any
 * virtual-time scheduler runs it without real time.
 */
export function rfidReader(
  link: RfidLink,
  config: RfidReaderConfig,
  scheduler: SchedulerLike = asyncScheduler,
  /** The serial numbers the table's devices hold: a second reader saying hello with one is refused. */
  claims: IdentityClaims = new IdentityClaims(),
): RfidReader {
  const { events, session } = sessionEvents(
    (emit: (event: RfidEvent) => void) =>
      new ReaderSession(config, scheduler, (bytes) => link.write(bytes), emit, claims),
    (current) => byteLinkInputs(link, current),
  );
  return { events, counters: () => session()?.counters };
}

/** One subscription's state: the link, who the device said it is, its health, and tag presence. */
class ReaderSession {
  readonly #config: RfidReaderConfig;
  readonly #scheduler: SchedulerLike;
  readonly #write: (bytes: Uint8Array) => void;
  readonly #emit: (event: RfidEvent) => void;
  readonly #claims: IdentityClaims;
  readonly #zones: ReadonlyMap<number, Zone>;
  readonly #pucks: ReadonlySet<string>;
  readonly #decoder = new FrameDecoder();
  readonly #clock = new ReaderClock();
  readonly #presence: PresenceTracker;
  #refused = 0;
  readonly #device: DeviceStatusTracker;
  #health: MessageOf<'health'> | undefined;
  /** Tag timeouts restart at the next reader time: after a HELLO, or when the reader is back online. */
  #resumePending = false;
  #commandSeq = 0;
  readonly #pending = new Map<number, Command>();
  /** Unmapped antennas already reported since the last HELLO: a board reads them every round. */
  readonly #unmappedReported = new Set<number>();
  /** The last round the board reported ended since its HELLO: its number on the board and the driver's. */
  #round: { board: number; n: number } | null = null;
  /** The driver's number of the last round ended: it only grows, across reboots too. */
  #lastRound = -1;
  /** The reads now are of the round after `#round`: false until a round ends, and after lost frames. */
  #inRound = false;

  constructor(
    config: RfidReaderConfig,
    scheduler: SchedulerLike,
    write: (bytes: Uint8Array) => void,
    emit: (event: RfidEvent) => void,
    claims: IdentityClaims,
  ) {
    this.#config = config;
    this.#claims = claims;
    this.#scheduler = scheduler;
    this.#write = write;
    this.#emit = emit;
    this.#zones = new Map(Object.entries(config.antennas).map(([index, zone]) => [Number(index), zone]));
    this.#pucks = new Set(config.pucks);
    this.#presence = new PresenceTracker(config);
    this.#device = new DeviceStatusTracker({
      scheduler,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      noun: 'reader',
      reported: (reader) => {
        const health = this.#health;
        if (health?.status === 'fault') return ['fault', `${reader}: fault ${health.code}: ${health.detail}`];
        if (health?.status === 'degraded')
          return ['online', `${reader}: degraded ${health.code}: ${health.detail}`];
        return ['online', reader];
      },
      changed: (status, detail, previous) => {
        // Absence is judged only over time the reader was seen working.
        if (status === 'online' && previous !== 'online') this.#resumePending = true;
        this.#emit({ kind: 'status', status, detail, t: this.#now() });
      },
    });
  }

  get counters(): RfidCounters {
    return { frames: this.#decoder.counters, refused: this.#refused };
  }

  linkUp(): void {
    this.#health = undefined;
    this.#pending.clear();
    // A board that was already running introduces itself only when asked.
    this.#send({ type: 'command', command: 'identify', blinkSeconds: 0 });
    this.#device.linkUp();
  }

  linkDown(reason: string): void {
    this.#inRound = false;
    // The frame in progress is cut off: it is rejected, and the next link starts clean.
    for (const result of this.#decoder.flush()) this.#handle(result);
    this.#claims.release(this.#config.id);
    this.#device.linkDown(reason);
  }

  receive(chunk: Uint8Array): void {
    for (const result of this.#decoder.push(chunk)) this.#handle(result);
  }

  close(): void {
    this.#device.stop();
  }

  #now(): number {
    return this.#scheduler.now();
  }

  #handle(result: DecodeResult): void {
    if (!result.ok) return this.#reject(`bad frame (${result.kind}): ${result.reason}`);
    if (result.dropped > 0) {
      // A lost frame may have been a round's end: which round the next reads belong to is unknown.
      this.#inRound = false;
      this.#reject(`${result.dropped} frame(s) lost before seq ${result.seq}`);
    }
    this.#device.heard();
    const message = result.message;
    if (message.type === 'hello') return this.#hello(message);
    if (this.#device.identity?.ok !== true) {
      // Before the HELLO, or from a device of another kind: nothing to act on.
      this.#refused++;
      return;
    }
    this.#message(message);
  }

  #message(message: Exclude<Message, MessageOf<'hello'>>): void {
    switch (message.type) {
      case 'heartbeat':
        if (this.#device.status === 'online')
          this.#changes(this.#presence.advance(this.#readerAt(message.uptimeMs)));
        return;
      case 'health':
        this.#health = message;
        return this.#device.update();
      case 'tag-read': {
        const zone = this.#trackedZone(message.antenna);
        if (!zone) return;
        const { readerTimeMs: readerTime, rssi } = message;
        const read = { at: this.#readerAt(readerTime), readerTime, rssi };
        return this.#changes(this.#presence.read(message.uid, zone, read));
      }
      case 'tag-gone': {
        const zone = this.#trackedZone(message.antenna);
        if (!zone) return;
        return this.#changes(this.#presence.missing(message.uid, zone, this.#readerAt(message.readerTimeMs)));
      }
      case 'round-end':
        return this.#roundEnded(message);
      case 'ack':
        this.#pending.delete(message.ackSeq);
        return;
      case 'nack': {
        const command = this.#pending.get(message.ackSeq) ?? `command seq ${message.ackSeq}`;
        this.#pending.delete(message.ackSeq);
        return this.#reject(`the reader refused ${command}: ${message.error}`);
      }
      case 'command':
        this.#refused++;
        return this.#reject('the reader sent a COMMAND, which only croupier sends');
    }
  }

  #hello(hello: MessageOf<'hello'>): void {
    this.#pending.clear();
    const kind = rfidReaderManifest.kind;
    const judged = judgeHello(hello, { kind, called: 'an rfid-reader', serial: this.#config.serial });
    const identity = this.#claims.judged(this.#config.id, kind, judged);
    if (!identity.ok) {
      this.#reject(`refused HELLO: ${identity.detail}`);
      this.#device.introduced(identity);
    } else {
      this.#health = undefined;
      this.#clock.reset();
      // The board's count starts again: the driver numbers on from its last.
      this.#round = null;
      this.#inRound = false;
      this.#resumePending = true;
      this.#unmappedReported.clear();
      // croupier's config decides what each antenna serves and how often the board reads.
      const antennas = [...this.#zones].map(([index, label]) => ({ index, label }));
      this.#send({ type: 'command', command: 'set-antenna-map', antennas });
      this.#send({
        type: 'command',
        command: 'set-inventory-period',
        periodMs: this.#config.inventoryPeriodMs,
      });
      this.#device.introduced(identity);
    }
  }

  /** The zone of a tag report to act on: the reader is online and the antenna mapped. */
  #trackedZone(antenna: number): Zone | undefined {
    const zone = this.#zones.get(antenna);
    if (zone && this.#device.status === 'online') return zone;
    this.#refused++;
    if (zone) return undefined;
    if (!this.#unmappedReported.has(antenna)) {
      this.#unmappedReported.add(antenna);
      this.#reject(`reads on antenna ${antenna}, which the antenna map does not name, are ignored`);
    }
    return undefined;
  }

  /**
   * A round ended. Numbered on from the last one the board reported, so that rounds lost with their
   * frames still count; after a reboot, the next number after the driver's last.
   */
  #roundEnded(message: MessageOf<'round-end'>): void {
    if (this.#device.status !== 'online') {
      this.#refused++;
      this.#inRound = false;
      return;
    }
    const since = this.#round === null ? 0 : (message.round - this.#round.board) >>> 0;
    // More than half the number space since the last: the board's count restarted without a HELLO.
    const n = this.#lastRound + (since > 0 && since < 2 ** 31 ? since : 1);
    this.#round = { board: message.round, n };
    this.#lastRound = n;
    this.#inRound = true;
    const at = this.#readerAt(message.readerTimeMs);
    // A round over moves the board's clock as a heartbeat does: a card lifted is gone at its grace's end.
    this.#changes(this.#presence.advance(at));
    this.#emit({ kind: 'round.end', round: n, readerTime: message.readerTimeMs, t: this.#clock.toHost(at) });
  }

  /** Where a frame's reader time lies on the reader timeline, which presence is judged on. */
  #readerAt(readerTime: number): number {
    const at = this.#clock.observe(readerTime, this.#now());
    if (this.#resumePending) {
      this.#resumePending = false;
      this.#presence.resume(at);
    }
    return at;
  }

  #changes(changes: readonly PresenceChange[]): void {
    for (const change of changes) {
      const { uid, zone, read } = change;
      const puck = this.#pucks.has(uid);
      if (change.change === 'seen') {
        const { readerTime } = read;
        const t = this.#clock.toHost(read.at);
        this.#emit(
          puck
            ? { kind: 'puck.seen', zone, uid, readerTime, t }
            : { kind: 'tag.seen', zone, uid, readerTime, rssi: read.rssi, t, ...this.#readRound() },
        );
      } else if (!puck) {
        this.#emit({
          kind: 'tag.gone',
          zone,
          uid,
          readerTime: read.readerTime,
          t: this.#clock.toHost(change.at),
        });
      }
    }
  }

  /** The round the board is reading now, when known. */
  #readRound(): { round: number } | undefined {
    return this.#inRound && this.#round !== null ? { round: this.#round.n + 1 } : undefined;
  }

  #send(command: MessageOf<'command'>): void {
    const seq = this.#commandSeq;
    this.#commandSeq = (seq + 1) & 0xffff;
    this.#pending.set(seq, command.command);
    this.#write(encodeMessage(command, seq));
  }

  #reject(reason: string): void {
    this.#emit({ kind: 'rejected', reason, t: this.#now() });
  }
}
