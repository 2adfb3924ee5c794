import { Subject, VirtualTimeScheduler } from 'rxjs';
import type { IdentityClaims } from '../../../../devices/identity-claims.js';
import {
  type LinkState,
  type RfidEvent,
  type RfidReader,
  rfidReader,
} from '../../../../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../../../../devices/rfid-reader/manifest.js';
import { encodeMessage, FrameDecoder } from '../../../../firmware-bridge/codec.js';
import type { Message } from '../../../../firmware-bridge/messages.js';

/** The board booted this long before the test's host time 0: reader time = host time + BOOT. */
export const BOOT = 7_000;
export const PUCK = 'B0770B0770';

/** Antennas per the default map: 0–9 under seats 1–10, 10 board, 11 burn, 12 muck. */
export const SEAT = (seat: number): number => seat - 1;
export const MUCK = 12;

export function uid(n: number): string {
  return `04${n.toString(16).toUpperCase().padStart(6, '0')}`;
}

export const HELLO: Message = {
  type: 'hello',
  kind: 'rfid-reader',
  firmware: '1.2.3',
  serial: 'RB-0042',
  antennas: [],
};

/**
 * A reader on a virtual link and a virtual clock: each step is scheduled at a host time, `run()`
 * plays them all, timers included, and returns what the driver emitted.
 */
export class Bench {
  readonly scheduler = new VirtualTimeScheduler();
  readonly bytes = new Subject<Uint8Array>();
  readonly state = new Subject<LinkState>();
  /** What the driver wrote to the board, decoded. */
  readonly written: Message[] = [];
  readonly events: RfidEvent[] = [];
  readonly reader: RfidReader;
  #seq = 0;

  constructor(config: Record<string, unknown> = {}, claims?: IdentityClaims) {
    const fromDriver = new FrameDecoder();
    this.reader = rfidReader(
      {
        bytes: this.bytes,
        state: this.state,
        write: (bytes) => {
          for (const result of fromDriver.push(bytes)) if (result.ok) this.written.push(result.message);
        },
      },
      parseRfidReaderConfig({ id: 'rfid-1', pucks: [PUCK], ...config }),
      this.scheduler,
      claims,
    );
    this.reader.events.subscribe((event) => this.events.push(event));
  }

  at(time: number, step: () => void): this {
    this.scheduler.schedule(step, time);
    return this;
  }

  /** Link up, then the board's HELLO and HEALTH ok, as a board answers `identify`. */
  connect(time = 0, hello: Message = HELLO): this {
    this.at(time, () => this.state.next({ up: true }));
    this.send(time, hello);
    return this.send(time, { type: 'health', status: 'ok', code: 0, detail: '' });
  }

  /** The next frame the board sends, as bytes. */
  frame(message: Message): Buffer {
    const frame = encodeMessage(message, this.#seq);
    this.#seq = (this.#seq + 1) & 0xffff;
    return frame;
  }

  /** Sends `message` at `time`, numbered as it goes out: steps may be scheduled in any order. */
  send(time: number, message: Message): this {
    return this.at(time, () => this.bytes.next(this.frame(message)));
  }

  read(time: number, antenna: number, tag: string, rssi = -50): this {
    return this.send(time, { type: 'tag-read', antenna, uid: tag, rssi, readerTimeMs: time + BOOT });
  }

  /** The board's TAG_GONE for the round at `time` that missed the tag. */
  gone(time: number, antenna: number, tag: string): this {
    return this.send(time, { type: 'tag-gone', antenna, uid: tag, readerTimeMs: time + BOOT });
  }

  /** A read every `period` ms from `from` up to (not including) `to`. */
  reads(from: number, to: number, period: number, antenna: number, tag: string): this {
    for (let time = from; time < to; time += period) this.read(time, antenna, tag);
    return this;
  }

  /** Heartbeats every second from `from` up to `to`. */
  heartbeats(from: number, to: number): this {
    for (let time = from; time <= to; time += 1000) {
      const uptimeMs = time + BOOT;
      this.at(time, () =>
        this.bytes.next(this.frame({ type: 'heartbeat', uptimeMs, framesSent: this.#seq + 1 })),
      );
    }
    return this;
  }

  /** Plays every step and timer up to host time `until`. */
  run(until = Number.POSITIVE_INFINITY): RfidEvent[] {
    this.scheduler.maxFrames = until;
    this.scheduler.flush();
    return this.events;
  }
}

/** The card and puck events only, in a compact form. */
export function presence(events: readonly RfidEvent[]): string[] {
  return events.flatMap((event) => {
    switch (event.kind) {
      case 'tag.seen':
      case 'tag.gone':
        return [`${event.kind} ${event.uid} ${event.zone} @${event.t}`];
      case 'puck.seen':
        return [`${event.kind} ${event.zone} @${event.t}`];
      default:
        return [];
    }
  });
}

export function statuses(events: readonly RfidEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'status' ? [`${event.status} @${event.t}`] : []));
}
