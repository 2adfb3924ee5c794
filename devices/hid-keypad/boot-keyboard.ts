import type { HidUsage } from '../../src/io/hid.js';

/**
 * The USB boot keyboard protocol (HID 1.11, appendix B), which keypads, call-floor buttons and badge readers
 * speak: an 8-byte input report (modifier bits, a reserved byte, up to six key usages held down) and a
 * 1-byte LED output report. Keys are named by their `KeyboardEvent.code` (UI Events), the names a config
 * file can use.
 */

/** The interface to open on a composite device: Generic Desktop, Keyboard. */
export const KEYBOARD_USAGE: HidUsage = { page: 0x01, id: 0x06 };

const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [`Key${letter}`, 0x04 + i] as const);
const digits = [...'1234567890'].map((digit, i) => [`Digit${digit}`, 0x1e + i] as const);
const numpad = [...'1234567890'].map((digit, i) => [`Numpad${digit}`, 0x59 + i] as const);
const functionKeys = Array.from(
  { length: 24 },
  (_, i) => [`F${i + 1}`, i < 12 ? 0x3a + i : 0x68 + i - 12] as const,
);

/** Key name → usage on the Keyboard/Keypad page (0x07). */
const USAGES: ReadonlyMap<string, number> = new Map([
  ...letters,
  ...digits,
  ['Enter', 0x28],
  ['Escape', 0x29],
  ['Backspace', 0x2a],
  ['Tab', 0x2b],
  ['Space', 0x2c],
  ['Minus', 0x2d],
  ['Equal', 0x2e],
  ...functionKeys,
  ['Insert', 0x49],
  ['Home', 0x4a],
  ['PageUp', 0x4b],
  ['Delete', 0x4c],
  ['End', 0x4d],
  ['PageDown', 0x4e],
  ['ArrowRight', 0x4f],
  ['ArrowLeft', 0x50],
  ['ArrowDown', 0x51],
  ['ArrowUp', 0x52],
  ['NumLock', 0x53],
  ['NumpadDivide', 0x54],
  ['NumpadMultiply', 0x55],
  ['NumpadSubtract', 0x56],
  ['NumpadAdd', 0x57],
  ['NumpadEnter', 0x58],
  ...numpad,
  ['NumpadDecimal', 0x63],
]);

const NAMES: ReadonlyMap<number, string> = new Map([...USAGES].map(([name, usage]) => [usage, name]));

export const KEY_NAMES: readonly string[] = [...USAGES.keys()];

export function usageOf(key: string): number | undefined {
  return USAGES.get(key);
}

/** A key that went down. `key` is null for a usage this table does not name. */
export interface KeyPress {
  key: string | null;
  usage: number;
  shift: boolean;
}

/** The key's name, or its usage code for one without a name. */
export function keyName(press: KeyPress): string {
  return press.key ?? `an unnamed key (usage 0x${press.usage.toString(16)})`;
}

export type DecodedReport = { ok: true; pressed: KeyPress[] } | { ok: false; reason: string };

const REPORT_BYTES = 8;
const SHIFT = 0x02 | 0x20;
/** ErrorRollOver, POSTFail, ErrorUndefined: the keyboard cannot tell which keys are down. */
const PHANTOM = 0x03;

/**
 * Turns input reports into key presses. A report lists every key held, so a key is pressed when it appears
 * in a report without being in the one before: a repeated report or a key held down is no new press, and
 * a key pressed twice needs a report without it in between.
 */
export class BootKeyboard {
  readonly #reportId: number | null;
  #held = new Set<number>();

  /** `reportId`: the id that prefixes the keyboard's reports, for a device that numbers them. */
  constructor(reportId: number | null) {
    this.#reportId = reportId;
  }

  decode(data: Uint8Array): DecodedReport {
    let report = data;
    if (this.#reportId !== null) {
      if (data.length === 0)
        return { ok: false, reason: `an empty report, without the keyboard's report id (${this.#reportId})` };
      if (data[0] !== this.#reportId) {
        return { ok: false, reason: `report id ${data[0]} is not the keyboard's (${this.#reportId})` };
      }
      report = data.subarray(1);
    }
    if (report.length !== REPORT_BYTES) {
      return { ok: false, reason: `a boot keyboard report is ${REPORT_BYTES} bytes, got ${report.length}` };
    }
    const usages = [...report.subarray(2)].filter((usage) => usage !== 0);
    // The held keys stay as they were, as the HID spec asks of a host.
    if (usages.some((usage) => usage <= PHANTOM)) {
      return { ok: false, reason: 'more keys held than the keyboard can report (rollover): report ignored' };
    }
    const shift = ((report[0] ?? 0) & SHIFT) !== 0;
    const pressed = usages
      .filter((usage) => !this.#held.has(usage))
      .map((usage) => ({ key: NAMES.get(usage) ?? null, usage, shift }));
    this.#held = new Set(usages);
    return { ok: true, pressed };
  }

  /** The device went away: no key is held any more. */
  release(): void {
    this.#held.clear();
  }
}

/** The report a keyboard sends while `keys` are held (at most six). */
export function bootReport(
  keys: readonly number[],
  shift = false,
  reportId: number | null = null,
): Uint8Array {
  if (keys.length > 6)
    throw new RangeError(`a boot keyboard report holds at most 6 keys, not ${keys.length}`);
  const report = new Uint8Array(REPORT_BYTES);
  report[0] = shift ? 0x02 : 0;
  report.set(keys, 2);
  return reportId === null ? report : Uint8Array.of(reportId, ...report);
}

export interface Leds {
  numLock?: boolean;
  capsLock?: boolean;
  scrollLock?: boolean;
}

const LED_BITS = { numLock: 0x01, capsLock: 0x02, scrollLock: 0x04 } as const;

/** The LED output report as node-hid writes it: the report id (0 when reports are not numbered), then the bits. */
export function ledReport(leds: Leds, reportId: number | null): Uint8Array {
  let bits = 0;
  for (const [led, bit] of Object.entries(LED_BITS)) if (leds[led as keyof Leds]) bits |= bit;
  return Uint8Array.of(reportId ?? 0, bits);
}

/** The LEDs an output report lights; undefined when it is not one. */
export function ledsOf(report: Uint8Array): Required<Leds> | undefined {
  const bits = report[1];
  if (report.length !== 2 || bits === undefined) return undefined;
  return {
    numLock: (bits & LED_BITS.numLock) !== 0,
    capsLock: (bits & LED_BITS.capsLock) !== 0,
    scrollLock: (bits & LED_BITS.scrollLock) !== 0,
  };
}
