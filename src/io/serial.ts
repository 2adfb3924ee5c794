import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';

/**
 * Serial transport: bytes in, bytes out, with the reconnect node-serialport lacks. An unplugged device is
 * reported `closed` at once and reopened with exponential backoff until it reappears; nothing here throws
 * into the caller, every failure becomes a status.
 */

/** Where the device is: a path (`/dev/serial/by-id/…` survives renumbering) or its USB identity. */
export type SerialDevice = { path: string } | UsbDeviceId;

export interface UsbDeviceId {
  /** Hex, as `lsusb` shows it (`0403`); case does not matter. */
  vendorId: string;
  productId: string;
  /** Needed when several identical devices are plugged in. */
  serialNumber?: string;
}

/** The part of node-serialport's `BindingInterface` the link uses, so its mock binding can stand in. */
export interface SerialBinding {
  list(): Promise<SerialPortInfo[]>;
  open(options: SerialOpenOptions): Promise<SerialBindingPort>;
}

export interface SerialPortInfo {
  path: string;
  vendorId?: string | undefined;
  productId?: string | undefined;
  serialNumber?: string | undefined;
}

export interface SerialOpenOptions {
  path: string;
  baudRate: number;
  dataBits?: 5 | 6 | 7 | 8;
  stopBits?: 1 | 1.5 | 2;
  parity?: 'none' | 'even' | 'odd' | 'mark' | 'space';
}

export interface SerialBindingPort {
  readonly isOpen: boolean;
  read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** Reopen delays: `initialMs` doubling up to `maxMs` (defaults 100 ms and 5 s), no jitter. */
export interface Backoff {
  initialMs?: number;
  maxMs?: number;
}

/** The delay before the next reopen, after `failures` failed opens in a row. */
export function backoffDelay(backoff: Backoff | undefined, failures: number): number {
  const { initialMs = 100, maxMs = 5000 } = backoff ?? {};
  return Math.min(maxMs, initialMs * 2 ** failures);
}

export interface SerialLinkOptions extends Omit<SerialOpenOptions, 'path'> {
  device: SerialDevice;
  backoff?: Backoff;
  /** Defaults to node-serialport's binding for this OS, loaded on first use. */
  binding?: SerialBinding;
}

export type SerialStatus =
  | { state: 'opening'; device: string }
  | { state: 'open'; device: string; path: string }
  /** `retryInMs` is null once the caller closed the link. */
  | { state: 'closed'; device: string; reason: string; retryInMs: number | null }
  /** `attempt` counts the failed opens in a row. */
  | { state: 'error'; device: string; reason: string; attempt: number; retryInMs: number };

export interface SerialLink {
  /** Received bytes in order; hot: bytes received before subscribing are not replayed. */
  readonly data$: Observable<Uint8Array>;
  /** The current status, then every change; completes after `close()`. */
  readonly status$: Observable<SerialStatus>;
  readonly status: SerialStatus;
  /**
   * Resolves once the bytes are handed to the OS. Rejects when the link is not open or the write fails
   * (the cause also shows on `status$`): a command is never held back for a device that comes back later.
   */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes the device and stops reconnecting; resolves when no handle or timer is left. */
  close(): Promise<void>;
}

export function openSerialLink(options: SerialLinkOptions): SerialLink {
  return new Link(options);
}

const READ_SIZE = 64 * 1024;
const PRESENCE_CHECK_MS = 500;

class Link implements SerialLink {
  readonly data$: Observable<Uint8Array>;
  readonly status$: Observable<SerialStatus>;
  readonly #options: SerialLinkOptions;
  readonly #device: string;
  readonly #data = new Subject<Uint8Array>();
  readonly #status: BehaviorSubject<SerialStatus>;
  #port: SerialBindingPort | null = null;
  #retry: NodeJS.Timeout | null = null;
  #presence: NodeJS.Timeout | null = null;
  #failures = 0;
  /** The open attempt or disconnect in progress, awaited by `close()`. */
  #pending: Promise<void>;
  #writes: Promise<void> = Promise.resolve();
  #closing: Promise<void> | null = null;

  constructor(options: SerialLinkOptions) {
    this.#options = options;
    this.#device = describeDevice(options.device);
    this.#status = new BehaviorSubject<SerialStatus>({ state: 'opening', device: this.#device });
    this.data$ = this.#data.asObservable();
    this.status$ = this.#status.asObservable();
    this.#pending = this.#connect();
  }

  get status(): SerialStatus {
    return this.#status.getValue();
  }

  write(bytes: Uint8Array): Promise<void> {
    const port = this.#port;
    if (!port) {
      return Promise.reject(new Error(`cannot write to ${this.#device}: it is ${this.status.state}`));
    }
    const chunk = Buffer.from(bytes);
    // The binding accepts one write at a time.
    const done = this.#writes.then(async () => {
      if (this.#port !== port) throw new Error(`cannot write to ${this.#device}: it closed`);
      try {
        await port.write(chunk);
      } catch (err) {
        if (this.#port === port) this.#lost(port, err);
        throw new Error(`write to ${this.#device} failed: ${messageOf(err)}`);
      }
    });
    this.#writes = done.catch(() => undefined);
    return done;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#presence) clearTimeout(this.#presence);
    this.#retry = null;
    const port = this.#port;
    this.#port = null;
    this.#status.next({ state: 'closed', device: this.#device, reason: 'closed by caller', retryInMs: null });
    if (port) await closeQuietly(port);
    await this.#pending;
    this.#status.complete();
    this.#data.complete();
  }

  get #stopped(): boolean {
    return this.#closing !== null;
  }

  async #connect(): Promise<void> {
    this.#retry = null;
    const outcome = await this.#tryOpen();
    if (this.#stopped) {
      if ('port' in outcome) await closeQuietly(outcome.port);
      return;
    }
    if ('reason' in outcome) {
      const retryInMs = this.#nextDelay();
      this.#status.next({
        state: 'error',
        device: this.#device,
        reason: outcome.reason,
        attempt: this.#failures,
        retryInMs,
      });
      this.#retryIn(retryInMs);
      return;
    }
    this.#port = outcome.port;
    this.#failures = 0;
    this.#status.next({ state: 'open', device: this.#device, path: outcome.path });
    void this.#readLoop(outcome.port);
    if (!this.#options.binding) this.#watchPresence(outcome.port, outcome.path);
  }

  async #tryOpen(): Promise<{ port: SerialBindingPort; path: string } | { reason: string }> {
    let binding: SerialBinding;
    try {
      // Loaded here so a native module that fails to load is a status, not a crash at startup.
      binding = this.#options.binding ?? (await import('serialport')).SerialPort.binding;
    } catch (err) {
      return { reason: `cannot load node-serialport's native binding: ${messageOf(err)}` };
    }
    let path: string;
    try {
      path = await this.#resolvePath(binding);
    } catch (err) {
      return { reason: messageOf(err) };
    }
    const { baudRate, dataBits, stopBits, parity } = this.#options;
    try {
      const port = await binding.open({ path, baudRate, dataBits, stopBits, parity });
      return { port, path };
    } catch (err) {
      return { reason: await explainOpenFailure(path, err) };
    }
  }

  async #resolvePath(binding: SerialBinding): Promise<string> {
    const device = this.#options.device;
    if ('path' in device) return device.path;
    let ports: SerialPortInfo[];
    try {
      ports = await binding.list();
    } catch (err) {
      const hint = /udevadm/.test(messageOf(err)) ? ' (is udev installed?)' : '';
      throw new Error(`cannot list serial devices to find ${this.#device}: ${messageOf(err)}${hint}`);
    }
    const matches = ports.filter(
      (p) =>
        sameHex(p.vendorId, device.vendorId) &&
        sameHex(p.productId, device.productId) &&
        (device.serialNumber === undefined || p.serialNumber === device.serialNumber),
    );
    const [first, ...others] = matches;
    if (!first) throw new Error(`${this.#device} not found`);
    // Two identical readers: guessing could swap tables' antennas, so ask for the serial number.
    if (others.length > 0) {
      const paths = matches.map((p) => p.path).join(', ');
      throw new Error(`${matches.length} devices match ${this.#device} (${paths}): set its serialNumber`);
    }
    return first.path;
  }

  async #readLoop(port: SerialBindingPort): Promise<void> {
    const buffer = Buffer.allocUnsafe(READ_SIZE);
    try {
      for (;;) {
        const { bytesRead } = await port.read(buffer, 0, READ_SIZE);
        // A copy: the buffer is reused by the next read.
        this.#data.next(new Uint8Array(buffer.subarray(0, bytesRead)));
      }
    } catch (err) {
      // A read cancelled by our own close() is no disconnect.
      if (this.#port === port) this.#lost(port, err);
    }
  }

  /**
   * A pending read does not always fail when the device goes (a hangup racing the poller): the device
   * node vanishing on unplug, or a dead PTY behind its link, is noticed here within PRESENCE_CHECK_MS.
   */
  #watchPresence(port: SerialBindingPort, path: string): void {
    const check = () => {
      this.#presence = null;
      if (this.#port !== port) return;
      access(path).then(
        () => {
          if (this.#port === port) this.#presence = setTimeout(check, PRESENCE_CHECK_MS);
        },
        (err: unknown) => {
          if (this.#port === port) this.#lost(port, err);
        },
      );
    };
    this.#presence = setTimeout(check, PRESENCE_CHECK_MS);
  }

  #lost(port: SerialBindingPort, err: unknown): void {
    this.#port = null;
    const retryInMs = this.#nextDelay();
    const reason = `${this.#device} disconnected: ${messageOf(err)}`;
    this.#status.next({ state: 'closed', device: this.#device, reason, retryInMs });
    // Release the device (and its lock) before reopening it.
    this.#pending = closeQuietly(port).then(() => {
      if (!this.#stopped) this.#retryIn(retryInMs);
    });
  }

  #nextDelay(): number {
    const delay = backoffDelay(this.#options.backoff, this.#failures);
    this.#failures += 1;
    return delay;
  }

  #retryIn(ms: number): void {
    this.#retry = setTimeout(() => {
      this.#pending = this.#connect();
    }, ms);
  }
}

export function describeDevice(device: SerialDevice): string {
  if ('path' in device) return `device ${device.path}`;
  const serial = device.serialNumber === undefined ? '' : ` serial ${device.serialNumber}`;
  return `USB device ${device.vendorId}:${device.productId}${serial}`;
}

export function sameHex(found: string | undefined, wanted: string): boolean {
  return found !== undefined && found.toLowerCase() === wanted.toLowerCase();
}

/** The binding's errors are strerror text only; the file system gives the usual causes an errno. */
async function explainOpenFailure(path: string, err: unknown): Promise<string> {
  const message = messageOf(err);
  const code = await access(path, constants.R_OK | constants.W_OK).then(
    () => undefined,
    (e: NodeJS.ErrnoException) => e.code,
  );
  if (code === 'ENOENT') return `device ${path} not found`;
  if (code === 'EACCES' || /permission denied/i.test(message)) {
    return `permission denied on ${path}: add the user running croupier to the dialout group`;
  }
  if (/cannot lock|busy/i.test(message)) return `${path} is in use by another program (${message})`;
  if (/inappropriate ioctl/i.test(message)) return `${path} is not a serial device`;
  return `cannot open ${path}: ${message}`;
}

async function closeQuietly(port: SerialBindingPort): Promise<void> {
  if (!port.isOpen) return;
  // Closing a port that is already gone may fail; the handle is released either way.
  await port.close().catch(() => undefined);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
