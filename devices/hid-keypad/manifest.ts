import { z } from 'zod';
import { usbDevice } from '../fields.js';
import { deviceManifest } from '../manifest.js';
import { KEY_NAMES } from './boot-keyboard.js';
import { MEANINGS, type Meaning } from './entry.js';

/**
 * A USB HID keyboard at the table: the dealer's keypad (and a call-floor button, which is a one-key keypad)
 * in `keypad` mode, the supervisor's badge reader in `badge` mode. Each is one config section.
 */

const digitKeys = (prefix: string) =>
  Object.fromEntries(Array.from({ length: 10 }, (_, d) => [`${prefix}${d}`, `digit:${d}`]));

/**
 * For a common USB numeric keypad: digits, Enter and Backspace (clear); the five operator keys for fold,
 * check, call, raise, all-in; Tab (22-key keypads) for bet and Escape to clear; F13–F24, which programmable
 * keypads and USB call buttons are set to send, for the dealer's inputs. NumLock is left alone: on some
 * keypads it switches the keys themselves.
 */
export const HID_KEYPAD_KEYS: Readonly<Record<string, Meaning>> = {
  ...(digitKeys('Numpad') as Record<string, Meaning>),
  NumpadEnter: 'enter',
  Backspace: 'clear',
  Escape: 'clear',
  NumpadDivide: 'fold',
  NumpadMultiply: 'check',
  NumpadSubtract: 'call',
  NumpadAdd: 'raise',
  NumpadDecimal: 'allin',
  Tab: 'bet',
  F13: 'call-floor',
  F14: 'deal-done',
  F15: 'confirm',
  F16: 'hand-end',
  F17: 'exposed',
  F18: 'exposed-by-player',
  F19: 'flashed',
  F20: 'boxed',
  F21: 'burn-exposed',
  F22: 'collect',
};

export const HID_KEYPAD_DEFAULTS = {
  reportId: null,
  keys: HID_KEYPAD_KEYS,
  entryTimeoutMs: 10_000,
  badgeGapMs: 500,
} as const;

const meaning = z.enum(MEANINGS as [Meaning, ...Meaning[]], {
  error: (issue) =>
    `${JSON.stringify(issue.input)} means nothing here: use digit:0 to digit:9, enter, clear, an act ` +
    '(fold, check, call, bet, raise, allin) or a dealer input (call-floor, deal-done, exposed…; README.md)',
});

const keyMap = z.record(z.string(), meaning).superRefine(
  (map, ctx) => {
    for (const key of Object.keys(map)) {
      if (KEY_NAMES.includes(key)) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `no key is named ${JSON.stringify(key)}: use KeyboardEvent.code names (Numpad1, NumpadEnter, F13…)`,
      });
    }
  },
  // Bad names are reported beside bad meanings, not after they are fixed.
  { when: ({ value }) => typeof value === 'object' && value !== null },
);

const common = {
  /**
   * The id in `device` events; never starting with `rfid`, which journals of earlier versions take for a
   * card reader (`roleOrLegacyIdRule`).
   */
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_.:-]*$/, 'an id is a letter then letters, digits or _ . : -')
    .refine((id) => !id.startsWith('rfid'), 'an id starting with "rfid" is a card reader\'s'),
  usb: usbDevice,
  /** The id prefixing the keyboard's input reports on a device that numbers them; null for a plain one. */
  reportId: z.number().int().min(1).max(255).nullable().default(HID_KEYPAD_DEFAULTS.reportId),
};

const keypadSection = z.strictObject({
  ...common,
  mode: z.literal('keypad').default('keypad'),
  /** Key name (`KeyboardEvent.code`) → what it means; keys not listed are refused when pressed. */
  keys: keyMap.default(HID_KEYPAD_DEFAULTS.keys),
  /** An entry left unfinished this long is dropped at the next key. */
  entryTimeoutMs: z.number().int().min(1000).max(600_000).default(HID_KEYPAD_DEFAULTS.entryTimeoutMs),
});

const badgeSection = z.strictObject({
  ...common,
  mode: z.literal('badge'),
  /** A pause this long between two keys drops the read: a reader types a badge in one go. */
  badgeGapMs: z.number().int().min(20).max(10_000).default(HID_KEYPAD_DEFAULTS.badgeGapMs),
});

/** The `hid-keypad` section of the config file: `id` and `usb` are needed, the rest has defaults. */
export const hidKeypadConfigSchema = z.discriminatedUnion('mode', [keypadSection, badgeSection], {
  error: 'mode is keypad (the default) or badge',
});

export type HidKeypadConfig = z.output<typeof hidKeypadConfigSchema>;
export type KeypadConfig = z.output<typeof keypadSection>;

export const hidKeypadManifest = deviceManifest(
  'hid-keypad',
  'hid',
  HID_KEYPAD_DEFAULTS,
  hidKeypadConfigSchema,
);

/** Validates a config section, or throws a ConfigError naming each bad key under `where`. */
export const parseHidKeypadConfig = hidKeypadManifest.parseConfig;
