import type { SchedulerLike, Subscription } from 'rxjs';
/** A device's health as its driver reports it; the normaliser passes it on as the `device` event's status. */
export type DeviceHealth = 'online' | 'offline' | 'fault';

/** The state of a device's link, as the transport reports it. */
export type LinkState = { up: true } | { up: false; reason: string };

/** Who the device said it is in its HELLO: the configured kind, or something else (refused). */
export type Identity = { ok: true; serial: string; firmware: string } | { ok: false; detail: string };

/**
 * Who the device on the link is, judged against the config: a device of another kind, or of the
 * configured kind with another serial number than the config names, is refused (its frames are not
 * acted on); `detail` says which.
 */
export function judgeHello(
  hello: { kind: string; serial: string; firmware: string },
  /**
   * `called`: the kind with its article, as details name it ("an rfid-reader"); `on`: where the device
   * speaks, `link` (a serial port, the default) or `topic` (an MQTT device's base topic).
   */
  expected: { kind: string; called: string; serial?: string | undefined; on?: 'link' | 'topic' },
): Identity {
  const on = `on this ${expected.on ?? 'link'}`;
  if (hello.kind !== expected.kind) {
    return {
      ok: false,
      detail: `the device ${on} says it is a ${hello.kind} (serial ${hello.serial}), not ${expected.called}`,
    };
  }
  if (expected.serial !== undefined && hello.serial !== expected.serial) {
    return {
      ok: false,
      detail: `${expected.called} with serial ${hello.serial} is ${on}, not the configured ${expected.serial}: refused`,
    };
  }
  return { ok: true, serial: hello.serial, firmware: hello.firmware };
}

/** How a status detail words the link and the hello. */
export interface StatusWording {
  linkDown(reason: string): string;
  waiting: string;
  noHello(timeoutMs: number): string;
}

/** A serial device's words. */
const SERIAL_WORDING: StatusWording = {
  linkDown: (reason) => `link down: ${reason}`,
  waiting: 'waiting for HELLO',
  noHello: (timeoutMs) => `no HELLO from the device within ${timeoutMs} ms`,
};

export interface DeviceStatusOptions {
  scheduler: SchedulerLike;
  /** Nothing heard for this long (heartbeats come every second) and the device is offline. */
  heartbeatTimeoutMs: number;
  /** How the device is named in details: `reader`, `shuffler`. */
  noun: string;
  /** The status the device's own reports give once it is introduced and heard: `named` is e.g. "reader SN, firmware 1.0". */
  reported(named: string): [DeviceHealth, string];
  /** The status or its detail changed. */
  changed(status: DeviceHealth, detail: string, previous: DeviceHealth): void;
  /** A serial device's words by default. */
  wording?: StatusWording;
  /**
   * The hello stands while the link is down and after it is back: a device on a broker, whose retained
   * hello the broker gives again on resubscribing. Otherwise (a serial device) it must say hello again.
   */
  helloOutlivesLink?: boolean;
  /**
   * A status of the driver's own that outranks the hello and the silence while the link is up (a device
   * that said goodbye, two devices speaking as one), or undefined.
   */
  overriding?(): [DeviceHealth, string] | undefined;
}

/**
 * A device's status as its driver judges it, the same for every kind: offline while the link is down,
 * before the HELLO, or when silent past the heartbeat timeout; fault when the device is not of the
 * configured kind; otherwise what its own reports say. Only changes are passed on.
 */
export class DeviceStatusTracker {
  readonly #options: DeviceStatusOptions;
  readonly #wording: StatusWording;
  #link: LinkState = { up: false, reason: 'not opened yet' };
  #identity: Identity | undefined;
  #silent = false;
  #silence: Subscription | undefined;
  /** When the last frame was heard, on the scheduler's clock. */
  #heardAt = 0;
  #status: DeviceHealth = 'offline';
  #published: string | undefined;

  constructor(options: DeviceStatusOptions) {
    this.#options = options;
    this.#wording = options.wording ?? SERIAL_WORDING;
  }

  get link(): LinkState {
    return this.#link;
  }

  get identity(): Identity | undefined {
    return this.#identity;
  }

  get status(): DeviceHealth {
    return this.#status;
  }

  /** Nothing was heard for the heartbeat timeout, and nothing since. */
  get silent(): boolean {
    return this.#silent;
  }

  /** The link is (back) up: the device must introduce itself again, unless its hello outlives the link. */
  linkUp(): void {
    this.#link = { up: true };
    if (!this.#options.helloOutlivesLink) this.#identity = undefined;
    this.#silent = false;
    this.#armSilence();
    this.update();
  }

  linkDown(reason: string): void {
    this.#link = { up: false, reason };
    this.#stopWatching();
    this.update();
  }

  /** The device said who it is; a hello is heard too. */
  introduced(identity: Identity): void {
    this.#identity = identity;
    this.#armSilence();
    this.#silent = false;
    this.update();
  }

  /** The device said it is going offline: its silence says nothing more until it is heard again. */
  saidGoodbye(): void {
    this.#stopWatching();
    this.#silent = false;
    this.update();
  }

  /** Any intact frame or line shows the device alive: the heartbeat timeout starts again. */
  heard(): void {
    this.#armSilence();
    if (!this.#silent) return;
    this.#silent = false;
    this.update();
  }

  /** Judges the status again (after the device's own report changed, say) and passes on a change. */
  update(): void {
    const [status, detail] = this.describe();
    const key = `${status}: ${detail}`;
    if (key === this.#published) return;
    const previous = this.#status;
    this.#status = status;
    this.#published = key;
    this.#options.changed(status, detail, previous);
  }

  describe(): [DeviceHealth, string] {
    const timeout = this.#options.heartbeatTimeoutMs;
    const identity = this.#identity;
    if (!this.#link.up) return ['offline', this.#wording.linkDown(this.#link.reason)];
    const overriding = this.#options.overriding?.();
    if (overriding) return overriding;
    if (identity && !identity.ok) return ['fault', identity.detail];
    if (!identity) return ['offline', this.#silent ? this.#wording.noHello(timeout) : this.#wording.waiting];
    const named = `${this.#options.noun} ${identity.serial}, firmware ${identity.firmware}`;
    if (this.#silent) return ['offline', `${named}: nothing heard for ${timeout} ms`];
    return this.#options.reported(named);
  }

  stop(): void {
    this.#stopWatching();
  }

  /**
   * The timeout runs from the last frame heard. One timer at a time, moved on to the new deadline only
   * when it fires: a reader sends hundreds of frames a second, and a timer each would cost every one.
   */
  #armSilence(): void {
    this.#heardAt = this.#options.scheduler.now();
    if (this.#silence === undefined) this.#watchSilence(this.#options.heartbeatTimeoutMs);
  }

  #watchSilence(delay: number): void {
    this.#silence = this.#options.scheduler.schedule(() => {
      const left = this.#heardAt + this.#options.heartbeatTimeoutMs - this.#options.scheduler.now();
      if (left > 0) return this.#watchSilence(left);
      this.#silence = undefined;
      this.#silent = true;
      this.update();
    }, delay);
  }

  #stopWatching(): void {
    this.#silence?.unsubscribe();
    this.#silence = undefined;
  }
}
