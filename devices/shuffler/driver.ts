import { asyncScheduler, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { ShufflerState } from '../../src/domain/events.js';
import { type ByteLink, byteLinkInputs, sessionEvents } from '../device-session.js';
import { type DeviceHealth, DeviceStatusTracker, judgeHello } from '../device-status.js';
import { IdentityClaims } from '../identity-claims.js';
import { LineReader } from './lines.js';
import { type ShufflerConfig, shufflerManifest } from './manifest.js';
import {
  type CommandVerb,
  encodeLine,
  LINE_REJECTIONS,
  type LineRejection,
  type MessageOf,
  type ParsedLine,
  type ShufflerMessage,
} from './protocol.js';

export type ShufflerHealth = DeviceHealth;

/** A serial device's link, as the reader board's: `byteLinkFromSerial` adapts the serial transport to it. */
export type ShufflerLink = ByteLink;

/** What the card recognition says about the deck it holds. UIDs are tags; `order` is top card first. */
export interface DeckReport {
  state: ShufflerState;
  deck: string | null;
  count?: number;
  faceUp: string[];
  missing: string[];
  extra: string[];
  order?: string[];
  /** The device's own code for a jam or an error. */
  code?: string;
}

/** What the shuffler driver reports; `t` is host time (the scheduler's clock, ms). */
export type ShufflerEvent =
  /** The shuffler's status changed: repeats of the same report are not passed on. */
  | ({ kind: 'report'; t: number } & DeckReport)
  /** The device's health changed (or its detail did). */
  | { kind: 'status'; status: ShufflerHealth; detail: string; t: number }
  /** Input the driver could not use: a bad line, a refused HELLO, an unmatched answer. */
  | { kind: 'rejected'; reason: string; t: number };

export type ShufflerCommand = 'shuffle' | 'eject';
export type CommandOutcome = { ok: true } | { ok: false; reason: string };

export interface ShufflerCounters {
  /** Lines accepted. */
  lines: number;
  /** Lines rejected, by reason. */
  rejected: Record<LineRejection, number>;
  /** Intact lines the driver refused: before a HELLO, from another kind of device, unmatched answers. */
  refused: number;
}

export interface Shuffler {
  /** Shared: every subscriber sees the same device; subscribing opens it, the last unsubscribe closes it. */
  events: Observable<ShufflerEvent>;
  /** Counters of the current subscription, undefined before the first. */
  counters(): ShufflerCounters | undefined;
  /**
   * Sends SHUFFLE or EJECT. Resolves once the device ACKs (ok) or NAKs it (its reason), or with why it
   * could not be done (offline, no answer in time, link lost); never rejects.
   */
  command(name: ShufflerCommand): Promise<CommandOutcome>;
}

/**
 * The shuffler driver: bytes from the link in, the shuffler's deck reports and device status out.
 * Timers and the host clock come from `scheduler`, so a virtual-time scheduler runs it without real time.
 */
export function shufflerDriver(
  link: ShufflerLink,
  config: ShufflerConfig,
  scheduler: SchedulerLike = asyncScheduler,
  /** The serial numbers the table's devices hold: a second shuffler saying hello with one is refused. */
  claims: IdentityClaims = new IdentityClaims(),
): Shuffler {
  const { events, session } = sessionEvents(
    (emit: (event: ShufflerEvent) => void) => new ShufflerSession(config, scheduler, link, emit, claims),
    (current) => byteLinkInputs(link, current),
  );
  return {
    events,
    counters: () => session()?.counters,
    command: (name) =>
      new Promise((resolve) => {
        const current = session();
        if (!current) return resolve({ ok: false, reason: 'the shuffler driver is not running' });
        current.command(name === 'shuffle' ? 'SHUFFLE' : 'EJECT', resolve);
      }),
  };
}

type Settle = (outcome: CommandOutcome) => void;

const FAULTS: Partial<Record<ShufflerState, string>> = {
  jam: 'jam',
  'door-open': 'door open',
  error: 'error',
};

/** One subscription's state: the link, who the device said it is, its health, and its last report. */
class ShufflerSession {
  readonly #config: ShufflerConfig;
  readonly #scheduler: SchedulerLike;
  readonly #link: ShufflerLink;
  readonly #emit: (event: ShufflerEvent) => void;
  readonly #lines = new LineReader();
  readonly counters: ShufflerCounters = {
    lines: 0,
    rejected: Object.fromEntries(LINE_REJECTIONS.map((kind) => [kind, 0])) as Record<LineRejection, number>,
    refused: 0,
  };
  readonly #device: DeviceStatusTracker;
  #report: DeckReport | undefined;
  /** The generation of the last STATUS heard; a heartbeat naming another one means a STATUS was lost. */
  #gen: number | undefined;
  /** The driver's own commands awaiting an answer: each is sent once at a time. */
  readonly #asking = new Set<'IDENT' | 'QUERY'>();
  #reported: string | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, { settle: Settle; timer: Subscription }>();
  readonly #claims: IdentityClaims;

  constructor(
    config: ShufflerConfig,
    scheduler: SchedulerLike,
    link: ShufflerLink,
    emit: (event: ShufflerEvent) => void,
    claims: IdentityClaims,
  ) {
    this.#config = config;
    this.#claims = claims;
    this.#scheduler = scheduler;
    this.#link = link;
    this.#emit = emit;
    this.#device = new DeviceStatusTracker({
      scheduler,
      heartbeatTimeoutMs: config.heartbeatTimeoutMs,
      noun: 'shuffler',
      reported: (shuffler) => {
        const report = this.#report;
        const fault = report && FAULTS[report.state];
        if (!fault) return ['online', shuffler];
        return ['fault', `${shuffler}: ${fault}${report.code ? ` (code ${report.code})` : ''}`];
      },
      changed: (status, detail) => this.#emit({ kind: 'status', status, detail, t: this.#now() }),
    });
  }

  linkUp(): void {
    this.#report = undefined;
    this.#device.linkUp();
    // A shuffler that was already running introduces itself only when asked.
    this.#internal('IDENT');
  }

  linkDown(reason: string): void {
    for (const line of this.#lines.flush()) this.#handle(line);
    this.#claims.release(this.#config.id);
    this.#device.linkDown(reason);
    this.#settleAll(`link down: ${reason}`);
  }

  receive(chunk: Uint8Array): void {
    for (const line of this.#lines.push(chunk)) this.#handle(line);
  }

  close(): void {
    this.#device.stop();
    this.#settleAll('the shuffler driver stopped');
  }

  /** Sends a host command, or settles at once with why the device cannot take it now. */
  command(verb: CommandVerb, settle: Settle): void {
    const [status, detail] = this.#device.describe();
    if (status === 'offline' || this.#device.identity?.ok !== true) {
      settle({ ok: false, reason: `the shuffler cannot take commands (${status}: ${detail})` });
      return;
    }
    this.#send(verb, settle);
  }

  /** A command of the driver's own: a refusal or no answer is reported, as it is no one's to handle. */
  #internal(verb: 'IDENT' | 'QUERY'): void {
    if (this.#asking.has(verb)) return;
    this.#asking.add(verb);
    this.#send(verb, (outcome) => {
      this.#asking.delete(verb);
      // A link going down fails it too, and says so itself.
      if (!outcome.ok && this.#device.link.up) this.#reject(`${verb} failed: ${outcome.reason}`);
    });
  }

  #send(verb: CommandVerb, settle: Settle): void {
    const id = this.#nextId;
    this.#nextId = (id + 1) & 0xffff;
    const timeout = this.#config.commandTimeoutMs;
    const timer = this.#scheduler.schedule(() => {
      this.#pending.delete(id);
      settle({ ok: false, reason: `no answer to ${verb} within ${timeout} ms` });
    }, timeout);
    this.#pending.set(id, { settle, timer });
    this.#link.write(Buffer.from(encodeLine({ verb, id }), 'latin1'));
  }

  #handle(line: ParsedLine): void {
    if (!line.ok) {
      this.counters.rejected[line.kind]++;
      return this.#reject(`bad line (${line.kind}): ${line.reason}`);
    }
    this.counters.lines++;
    this.#device.heard();
    const message = line.message;
    if (message.verb === 'HELLO') return this.#hello(message);
    // The answer to IDENT comes before the HELLO it asks for.
    if (message.verb === 'ACK' || message.verb === 'NAK') return this.#answer(message);
    if (this.#device.identity?.ok !== true) {
      // Before the HELLO, or from a device of another kind: nothing to act on. A device heard but not
      // introduced missed the IDENT (sent before its end of the cable was open): it is asked again.
      this.counters.refused++;
      if (!this.#device.identity) this.#internal('IDENT');
      return;
    }
    this.#message(message);
  }

  #message(message: Exclude<ShufflerMessage, MessageOf<'HELLO' | 'ACK' | 'NAK'>>): void {
    switch (message.verb) {
      case 'STATUS':
        return this.#deckStatus(message);
      case 'HB':
        if (message.gen !== this.#gen) this.#internal('QUERY');
        return;
      default:
        this.counters.refused++;
        return this.#reject(`the shuffler sent ${message.verb}, which only croupier sends`);
    }
  }

  #hello(hello: MessageOf<'HELLO'>): void {
    this.#gen = undefined;
    this.#report = undefined;
    const kind = shufflerManifest.kind;
    const judged = judgeHello(
      { ...hello, firmware: hello.fw },
      { kind, called: 'a shuffler', serial: this.#config.serial },
    );
    const identity = this.#claims.judged(this.#config.id, kind, judged);
    if (!identity.ok) this.#reject(`refused HELLO: ${identity.detail}`);
    this.#device.introduced(identity);
  }

  #deckStatus(status: MessageOf<'STATUS'>): void {
    this.#gen = status.gen;
    const { state, deck, count, faceup, missing, extra, order, code } = status;
    const report: DeckReport = { state, deck: deck ?? null, faceUp: faceup, missing, extra };
    if (count !== undefined) report.count = count;
    if (order !== undefined) report.order = order;
    if (code !== undefined) report.code = code;
    this.#report = report;
    const key = JSON.stringify(report);
    if (key !== this.#reported) {
      this.#reported = key;
      this.#emit({ kind: 'report', t: this.#now(), ...report });
    }
    this.#device.update();
  }

  #answer(answer: MessageOf<'ACK'> | MessageOf<'NAK'>): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) {
      this.counters.refused++;
      return this.#reject(`an ${answer.verb} for id ${answer.id}, which no pending command has`);
    }
    this.#pending.delete(answer.id);
    pending.timer.unsubscribe();
    pending.settle(
      answer.verb === 'ACK' ? { ok: true } : { ok: false, reason: `the shuffler refused: ${answer.reason}` },
    );
  }

  #settleAll(reason: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { settle, timer } of pending) {
      timer.unsubscribe();
      settle({ ok: false, reason });
    }
  }

  #now(): number {
    return this.#scheduler.now();
  }

  #reject(reason: string): void {
    this.#emit({ kind: 'rejected', reason, t: this.#now() });
  }
}
