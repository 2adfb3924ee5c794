import type { HIDAsync } from 'node-hid';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import {
  type Backoff,
  backoffDelay,
  describeDevice,
  messageOf,
  sameHex,
  type UsbDeviceId,
} from './serial.js';

/**
 * USB HID transport: input reports in, output reports (LEDs) out, through node-hid's hidraw driver. As with
 * the serial link nothing throws into the caller: a device not plugged in, unplugged, or a machine without
 * HID support is a status, and the device is looked for again with backoff until it appears.
 */

export interface HidDeviceInfo {
  /** What it is opened by: its hidraw node on Linux (`/dev/hidraw0`). */
  path: string;
  /** Hex, as `lsusb` shows it (`1209`); case does not matter. */
  vendorId: string;
  productId: string;
  serialNumber?: string | undefined;
  product?: string | undefined;
  /** The interface's top-level usage: page 1, usage 6 (Generic Desktop, Keyboard) for a keyboard. */
  usagePage?: number | undefined;
  usage?: number | undefined;
}

/** An open device. */
export interface HidHandle {
  /**
   * Starts reading, once per handle: every input report goes to `report`; the error that ends the handle
   * (the device was unplugged) goes to `lost`.
   */
  read(report: (data: Uint8Array) => void, lost: (error: Error) => void): void;
  /** Sends an output report; its first byte is the report id, 0 for a device that does not number them. */
  write(report: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** How the link reaches HID devices, in the manner of node-serialport's bindings: node-hid, or a simulation. */
export interface HidBinding {
  list(): Promise<HidDeviceInfo[]>;
  open(device: HidDeviceInfo): Promise<HidHandle>;
}

/** A HID usage (page and id) naming what an interface of a device is. */
export interface HidUsage {
  page: number;
  id: number;
}

export interface HidLinkOptions {
  device: UsbDeviceId;
  /** The interface to open when the device has several (a keypad's keys and its media keys). */
  usage?: HidUsage;
  backoff?: Backoff;
  /** Defaults to node-hid's hidraw driver, loaded on first use. */
  binding?: HidBinding;
}

export type HidStatus =
  | { state: 'opening'; device: string }
  | { state: 'open'; device: string; path: string }
  /** Unplugged, looked for again in `retryInMs`; or closed by the caller, `retryInMs` null. */
  | { state: 'closed'; device: string; reason: string; retryInMs: number | null }
  /**
   * Not to be had: not plugged in, no HID support on this machine, no permission. `attempt` counts the
   * failed opens in a row.
   */
  | { state: 'missing'; device: string; reason: string; attempt: number; retryInMs: number };

export interface HidLink {
  /** Input reports in order; hot: reports received before subscribing are not replayed. */
  readonly reports$: Observable<Uint8Array>;
  /** The current status, then every change; completes after `close()`. */
  readonly status$: Observable<HidStatus>;
  readonly status: HidStatus;
  /** Sends an output report; rejects when the device is not open or the write fails. */
  write(report: Uint8Array): Promise<void>;
  /** Closes the device and stops looking for it; resolves when no handle or timer is left. */
  close(): Promise<void>;
}

export function openHidLink(options: HidLinkOptions): HidLink {
  return new Link(options);
}

/** The machine cannot use HID at all: node-hid's native library did not load. */
export class HidUnavailableError extends Error {
  override name = 'HidUnavailableError';

  constructor(cause: unknown) {
    const reason = messageOf(cause);
    // Both libraries are loaded by node-hid's hidraw build; name the one that is missing.
    const hint = /libudev/.test(reason) ? 'libudev1' : 'libusb-1.0-0';
    super(`HID unavailable: ${reason} (install ${hint})`, { cause });
  }
}

type NodeHid = Pick<
  typeof import('node-hid'),
  'setDriverType' | 'getHidapiVersion' | 'devicesAsync' | 'HIDAsync'
>;

/**
 * node-hid as a binding, with the hidraw driver (the kernel's, no detaching it from the keyboard driver).
 * The module is loaded at the first `list` or `open`, so a machine without it still starts; a failed load
 * throws `HidUnavailableError` and is tried again at the next call, once the library is installed.
 */
export function nodeHidBinding(load: () => Promise<NodeHid> = () => import('node-hid')): HidBinding {
  let loaded: NodeHid | undefined;
  const hid = async (): Promise<NodeHid> => {
    if (loaded) return loaded;
    try {
      const module = await load();
      module.setDriverType('hidraw');
      // node-hid loads its native library lazily too: load it now so a missing one is reported as such.
      module.getHidapiVersion();
      loaded = module;
      return module;
    } catch (err) {
      throw new HidUnavailableError(err);
    }
  };
  return {
    async list() {
      const devices = await (await hid()).devicesAsync();
      return devices.flatMap(({ path, vendorId, productId, serialNumber, product, usagePage, usage }) =>
        path === undefined
          ? []
          : [
              {
                path,
                vendorId: hex4(vendorId),
                productId: hex4(productId),
                serialNumber,
                product,
                usagePage,
                usage,
              },
            ],
      );
    },
    async open(device) {
      return nodeHidHandle(await (await hid()).HIDAsync.open(device.path));
    },
  };
}

function nodeHidHandle(device: HIDAsync): HidHandle {
  return {
    read(report, lost) {
      let gone = false;
      device.on('data', (data: Buffer) => report(new Uint8Array(data)));
      // Kept for every error, not once: an 'error' emitted with no listener would crash the process.
      device.on('error', (err: unknown) => {
        if (gone) return;
        gone = true;
        lost(err instanceof Error ? err : new Error(String(err)));
      });
    },
    async write(report) {
      await device.write(Buffer.from(report));
    },
    close: () => device.close(),
  };
}

function hex4(id: number): string {
  return id.toString(16).padStart(4, '0');
}

type Opened = { handle: HidHandle; path: string } | { reason: string };

class Link implements HidLink {
  readonly reports$: Observable<Uint8Array>;
  readonly status$: Observable<HidStatus>;
  readonly #options: HidLinkOptions;
  readonly #binding: HidBinding;
  readonly #device: string;
  readonly #reports = new Subject<Uint8Array>();
  readonly #status: BehaviorSubject<HidStatus>;
  #handle: HidHandle | null = null;
  /** Cuts short the wait in progress (an open device, or a delay before the next try) when closing. */
  #interrupt: () => void = () => undefined;
  #stopped = false;
  readonly #running: Promise<void>;
  #closing: Promise<void> | null = null;

  constructor(options: HidLinkOptions) {
    this.#options = options;
    this.#binding = options.binding ?? defaultBinding();
    this.#device = describeDevice(options.device);
    this.#status = new BehaviorSubject<HidStatus>({ state: 'opening', device: this.#device });
    this.reports$ = this.#reports.asObservable();
    this.status$ = this.#status.asObservable();
    this.#running = this.#run();
  }

  get status(): HidStatus {
    return this.#status.getValue();
  }

  async write(report: Uint8Array): Promise<void> {
    const handle = this.#handle;
    if (!handle) throw new Error(`cannot write to ${this.#device}: it is ${this.status.state}`);
    try {
      await handle.write(report);
    } catch (err) {
      throw new Error(`write to ${this.#device} failed: ${messageOf(err)}`);
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#stopped = true;
    this.#status.next({ state: 'closed', device: this.#device, reason: 'closed by caller', retryInMs: null });
    this.#interrupt();
    await this.#running;
    this.#status.complete();
    this.#reports.complete();
  }

  /** Open, read until unplugged, wait, again, until closed. */
  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stopped) {
      const opened = await this.#open();
      if ('reason' in opened) {
        if (this.#stopped) return;
        const retryInMs = backoffDelay(this.#options.backoff, failures++);
        const { reason } = opened;
        this.#status.next({ state: 'missing', device: this.#device, reason, attempt: failures, retryInMs });
        await this.#wait(retryInMs);
        continue;
      }
      const { handle, path } = opened;
      failures = 0;
      const lost = this.#stopped ? null : await this.#readUntilLost(handle, path);
      this.#handle = null;
      // Released before the device is looked for again, whatever ended it.
      await handle.close().catch(() => undefined);
      if (!lost || this.#stopped) return;
      const retryInMs = backoffDelay(this.#options.backoff, failures++);
      const reason = `${this.#device} unplugged: ${messageOf(lost)}`;
      this.#status.next({ state: 'closed', device: this.#device, reason, retryInMs });
      await this.#wait(retryInMs);
    }
  }

  /** Resolves with the error that ended the handle, or null when the caller closed the link. */
  #readUntilLost(handle: HidHandle, path: string): Promise<Error | null> {
    this.#handle = handle;
    this.#status.next({ state: 'open', device: this.#device, path });
    return new Promise((resolve) => {
      this.#interrupt = () => resolve(null);
      handle.read(
        (report) => {
          if (this.#handle === handle) this.#reports.next(report);
        },
        (error) => resolve(error),
      );
    });
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async #open(): Promise<Opened> {
    let device: HidDeviceInfo;
    try {
      device = await this.#find();
    } catch (err) {
      return { reason: messageOf(err) };
    }
    try {
      return { handle: await this.#binding.open(device), path: device.path };
    } catch (err) {
      return { reason: explainOpenFailure(device.path, err) };
    }
  }

  async #find(): Promise<HidDeviceInfo> {
    const { device, usage } = this.#options;
    let devices: HidDeviceInfo[];
    try {
      devices = await this.#binding.list();
    } catch (err) {
      if (err instanceof HidUnavailableError) throw err;
      throw new Error(`cannot list HID devices to find ${this.#device}: ${messageOf(err)}`);
    }
    const same = devices.filter(
      (d) =>
        sameHex(d.vendorId, device.vendorId) &&
        sameHex(d.productId, device.productId) &&
        (device.serialNumber === undefined || d.serialNumber === device.serialNumber),
    );
    if (same.length === 0) throw new Error(`${this.#device} not found`);
    const fitting = usage ? same.filter((d) => d.usagePage === usage.page && d.usage === usage.id) : same;
    const [chosen] = fitting;
    if (!chosen) {
      const wanted = `usage page 0x${usage?.page.toString(16)}, usage 0x${usage?.id.toString(16)}`;
      throw new Error(`${this.#device} has no HID interface with ${wanted}`);
    }
    // hidapi lists a node once per top-level usage: several entries may share a path.
    const paths = [...new Set(fitting.map((d) => d.path))];
    // Two identical keypads: guessing could give one table's keys to another, so ask for the serial number.
    if (paths.length > 1) {
      throw new Error(
        `${paths.length} devices match ${this.#device} (${paths.join(', ')}): set its serialNumber`,
      );
    }
    return chosen;
  }
}

let sharedBinding: HidBinding | undefined;

/** One node-hid binding for every link, so the module is loaded once. */
function defaultBinding(): HidBinding {
  sharedBinding ??= nodeHidBinding();
  return sharedBinding;
}

/** hidapi's messages carry strerror text; turn the usual causes into what to do. */
function explainOpenFailure(path: string, err: unknown): string {
  const message = messageOf(err);
  if (/permission denied/i.test(message)) {
    return `permission denied on ${path}: allow the user running croupier with a udev rule (devices/hid-keypad/README.md)`;
  }
  if (/no such file/i.test(message)) return `${path} vanished before it could be opened (unplugged?)`;
  return `cannot open ${path}: ${message}`;
}
