import { Subject, VirtualTimeScheduler } from 'rxjs';
import type { LinkState } from '../../../../devices/rfid-reader/driver.js';
import {
  type CommandOutcome,
  type Shuffler,
  type ShufflerCommand,
  type ShufflerEvent,
  shufflerDriver,
} from '../../../../devices/shuffler/driver.js';
import { LineReader } from '../../../../devices/shuffler/lines.js';
import { parseShufflerConfig } from '../../../../devices/shuffler/manifest.js';
import { encodeLine, type MessageOf, type ShufflerMessage } from '../../../../devices/shuffler/protocol.js';

export const HELLO: ShufflerMessage = {
  verb: 'HELLO',
  kind: 'shuffler',
  proto: 1,
  serial: 'SH-7',
  fw: '2.0',
};
export const DEVICE = 'shuffler SH-7, firmware 2.0';

export function uid(n: number): string {
  return `04${n.toString(16).toUpperCase().padStart(6, '0')}`;
}

/** A STATUS line's message with empty lists unless given. */
export function status(gen: number, fields: Partial<MessageOf<'STATUS'>>): MessageOf<'STATUS'> {
  return { verb: 'STATUS', gen, state: 'idle', faceup: [], missing: [], extra: [], ...fields };
}

/**
 * A shuffler on a virtual link and a virtual clock: each step is scheduled at a host time, `run()` plays
 * them all, timers included, and returns what the driver emitted.
 */
export class Bench {
  readonly scheduler = new VirtualTimeScheduler();
  readonly bytes = new Subject<Uint8Array>();
  readonly state = new Subject<LinkState>();
  /** What the driver wrote to the device, decoded. */
  readonly written: ShufflerMessage[] = [];
  readonly events: ShufflerEvent[] = [];
  readonly outcomes: { command: ShufflerCommand; outcome: CommandOutcome }[] = [];
  readonly driver: Shuffler;

  constructor(config: Record<string, unknown> = {}) {
    const fromDriver = new LineReader();
    this.driver = shufflerDriver(
      {
        bytes: this.bytes,
        state: this.state,
        write: (bytes) => {
          for (const line of fromDriver.push(bytes)) if (line.ok) this.written.push(line.message);
        },
      },
      parseShufflerConfig(config),
      this.scheduler,
    );
    this.driver.events.subscribe((event) => this.events.push(event));
  }

  at(time: number, step: () => void): this {
    this.scheduler.schedule(step, time);
    return this;
  }

  /** Link up, then the device's ACK, HELLO and STATUS, as a shuffler answers IDENT. */
  connect(time = 0, hello: ShufflerMessage = HELLO): this {
    this.at(time, () => this.state.next({ up: true }));
    this.answer(time).send(time, hello);
    return this.send(time, status(0, {}));
  }

  send(time: number, message: ShufflerMessage): this {
    return this.raw(time, encodeLine(message));
  }

  raw(time: number, text: string): this {
    return this.at(time, () => this.bytes.next(Buffer.from(text, 'latin1')));
  }

  /** Heartbeats every second from `from` up to `to`, naming STATUS generation `gen`. */
  heartbeats(from: number, to: number, gen = 0): this {
    for (let time = from; time <= to; time += 1000) this.send(time, { verb: 'HB', up: time, gen });
    return this;
  }

  command(time: number, command: ShufflerCommand): this {
    return this.at(time, () => {
      void this.driver.command(command).then((outcome) => this.outcomes.push({ command, outcome }));
    });
  }

  /** Answers the last command the driver wrote. */
  answer(time: number, reason?: string): this {
    return this.at(time, () => {
      const last = this.written.at(-1);
      if (!last || !('id' in last)) throw new Error('no command to answer');
      const id = last.id;
      const answer: ShufflerMessage = reason ? { verb: 'NAK', id, reason } : { verb: 'ACK', id };
      this.bytes.next(Buffer.from(encodeLine(answer), 'latin1'));
    });
  }

  /** Plays every step and timer up to host time `until`, then lets command outcomes settle. */
  async run(until = Number.POSITIVE_INFINITY): Promise<ShufflerEvent[]> {
    this.scheduler.maxFrames = until;
    this.scheduler.flush();
    await Promise.resolve();
    return this.events;
  }
}

/** The status events only, as `status @t`. */
export function statuses(events: readonly ShufflerEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'status' ? [`${event.status} @${event.t}`] : []));
}

export function reports(events: readonly ShufflerEvent[]): Extract<ShufflerEvent, { kind: 'report' }>[] {
  return events.flatMap((event) => (event.kind === 'report' ? [event] : []));
}

export function rejections(events: readonly ShufflerEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'rejected' ? [event.reason] : []));
}
