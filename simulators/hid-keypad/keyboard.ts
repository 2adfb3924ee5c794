import {
  bootReport,
  KEYBOARD_USAGE,
  type Leds,
  ledsOf,
  usageOf,
} from '../../devices/hid-keypad/boot-keyboard.js';
import type { HidBinding, HidDeviceInfo, HidHandle } from '../../src/io/hid.js';

/**
 * Simulated USB HID keyboards (a dealer keypad, a badge reader) on a simulated bus that stands in for
 * node-hid. They send the boot keyboard reports real ones send: a report on every key down and key up,
 * the rollover report when more than six keys are held. They can be unplugged and plugged back, and keep
 * the output reports (LEDs) croupier writes.
 */

export interface SimulatedKeyboardOptions {
  vendorId: string;
  productId: string;
  serialNumber?: string;
  product?: string;
  /** The hidraw node it shows as. */
  path: string;
  /** The id prefixing its reports, for a keyboard that numbers them (default: it does not). */
  reportId?: number | null;
}

interface Reader {
  report(data: Uint8Array): void;
  lost(error: Error): void;
}

/** What a boot keyboard reports when it cannot tell which keys are down. */
const ROLLOVER = [1, 1, 1, 1, 1, 1];

export class SimulatedKeyboard {
  readonly info: HidDeviceInfo;
  /** Every output report croupier wrote, in order (report id first). */
  readonly outputReports: Uint8Array[] = [];
  readonly #reportId: number | null;
  readonly #readers = new Set<Reader>();
  #plugged = true;
  #held: number[] = [];
  #shift = false;

  constructor(options: SimulatedKeyboardOptions) {
    const { reportId = null, ...identity } = options;
    this.info = { ...identity, usagePage: KEYBOARD_USAGE.page, usage: KEYBOARD_USAGE.id };
    this.#reportId = reportId;
  }

  get plugged(): boolean {
    return this.#plugged;
  }

  /** The LEDs lit by the last LED report, undefined before the first. */
  get leds(): Required<Leds> | undefined {
    const last = this.outputReports.at(-1);
    return last && ledsOf(last);
  }

  /** Opens it as node-hid does; fails as node-hid does when it is unplugged. */
  open(): HidHandle {
    const { path } = this.info;
    if (!this.#plugged) throw new Error(`cannot open device with path ${path}: No such file or directory`);
    let reader: Reader | undefined;
    let closed = false;
    return {
      read: (report, lost) => {
        reader = { report, lost };
        this.#readers.add(reader);
      },
      write: async (report) => {
        if (closed || !this.#plugged)
          throw new Error(`cannot write to ${path}: the device is closed or gone`);
        this.outputReports.push(Uint8Array.from(report));
      },
      close: async () => {
        closed = true;
        if (reader) this.#readers.delete(reader);
      },
    };
  }

  /** Pulls the cable: open handles fail their read, keys held are let go. */
  unplug(): void {
    this.#plugged = false;
    this.#held = [];
    this.#shift = false;
    const readers = [...this.#readers];
    this.#readers.clear();
    for (const reader of readers) reader.lost(new Error('could not read from HID device'));
  }

  plug(): void {
    this.#plugged = true;
  }

  /** Presses and releases each key in turn. */
  press(...keys: readonly string[]): void {
    for (const key of keys) {
      this.keyDown(key);
      this.keyUp(key);
    }
  }

  /** Holds `key` down, with shift if asked, beside the keys already held. */
  keyDown(key: string, shift = false): void {
    this.#held.push(usage(key));
    this.#shift = shift;
    this.#sendHeld();
  }

  keyUp(key: string): void {
    const code = usage(key);
    this.#held = this.#held.filter((held) => held !== code);
    if (this.#held.length === 0) this.#shift = false;
    this.#sendHeld();
  }

  /** Types text as a keyboard does: digits, and letters (capitals with shift). */
  type(text: string): void {
    for (const char of text) {
      const key = /[0-9]/.test(char) ? `Digit${char}` : `Key${char.toUpperCase()}`;
      this.keyDown(key, char !== char.toLowerCase());
      this.keyUp(key);
    }
  }

  /** Types a badge UID then Enter, as a badge reader does. */
  typeBadge(uid: string): void {
    this.type(uid);
    this.press('Enter');
  }

  /** Sends any bytes as an input report: a fault, or a device that is no boot keyboard. */
  sendReport(report: Uint8Array): void {
    if (!this.#plugged) return;
    for (const reader of this.#readers) reader.report(Uint8Array.from(report));
  }

  #sendHeld(): void {
    const keys = this.#held.length > 6 ? ROLLOVER : this.#held;
    this.sendReport(bootReport(keys, this.#shift, this.#reportId));
  }
}

function usage(key: string): number {
  const code = usageOf(key);
  if (code === undefined) throw new Error(`no key is named ${key}`);
  return code;
}

/** A USB bus of simulated keyboards, as a HID binding: plugged ones are listed and can be opened. */
export class SimulatedHidBus implements HidBinding {
  readonly #keyboards: readonly SimulatedKeyboard[];

  constructor(keyboards: readonly SimulatedKeyboard[]) {
    this.#keyboards = keyboards;
  }

  async list(): Promise<HidDeviceInfo[]> {
    return this.#keyboards.filter((keyboard) => keyboard.plugged).map((keyboard) => ({ ...keyboard.info }));
  }

  async open(device: HidDeviceInfo): Promise<HidHandle> {
    const keyboard = this.#keyboards.find((candidate) => candidate.info.path === device.path);
    if (!keyboard) throw new Error(`cannot open device with path ${device.path}: No such file or directory`);
    return keyboard.open();
  }
}

/** The simulated devices' USB ids: pid.codes' test product ids, which no real product uses. */
export const SIMULATED_KEYPAD_USB = { vendorId: '1209', productId: '0001' } as const;
export const SIMULATED_BADGE_READER_USB = { vendorId: '1209', productId: '0002' } as const;

/** A table's dealer keypad and supervisor badge reader, plugged into one simulated bus. */
export function simulatedHidDevices(): {
  bus: SimulatedHidBus;
  keypad: SimulatedKeyboard;
  badgeReader: SimulatedKeyboard;
} {
  const keypad = new SimulatedKeyboard({
    ...SIMULATED_KEYPAD_USB,
    serialNumber: 'SIM-KEYPAD-1',
    product: 'Simulated dealer keypad',
    path: '/dev/hidraw-sim0',
  });
  const badgeReader = new SimulatedKeyboard({
    ...SIMULATED_BADGE_READER_USB,
    serialNumber: 'SIM-BADGE-1',
    product: 'Simulated badge reader',
    path: '/dev/hidraw-sim1',
  });
  return { bus: new SimulatedHidBus([keypad, badgeReader]), keypad, badgeReader };
}
