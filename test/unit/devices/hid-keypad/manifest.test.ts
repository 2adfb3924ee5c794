import { describe, expect, it } from 'vitest';
import { HID_KEYPAD_KEYS, parseHidKeypadConfig } from '../../../../devices/hid-keypad/manifest.js';
import { ConfigError } from '../../../../src/config/problems.js';

const USB = { vendorId: '1209', productId: '0001' };

function problems(section: unknown): string {
  try {
    parseHidKeypadConfig(section, 'devices.keypad');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the section was accepted');
}

describe('hid-keypad manifest', () => {
  it('is a keypad with the numeric keypad key map unless told otherwise', () => {
    expect(parseHidKeypadConfig({ id: 'keypad-1', usb: { vendorId: '1209', productId: '000A' } })).toEqual({
      id: 'keypad-1',
      mode: 'keypad',
      usb: { vendorId: '1209', productId: '000a' },
      reportId: null,
      keys: HID_KEYPAD_KEYS,
      entryTimeoutMs: 10_000,
    });
    expect(HID_KEYPAD_KEYS).toMatchObject({
      Numpad0: 'digit:0',
      Numpad9: 'digit:9',
      NumpadEnter: 'enter',
      F13: 'call-floor',
    });
  });

  it('keys every meaning in the default map, one key each but clear', () => {
    const meanings = Object.values(HID_KEYPAD_KEYS);
    expect(meanings.filter((meaning) => meaning === 'clear')).toHaveLength(2);
    expect(new Set(meanings).size).toBe(meanings.length - 1);
    expect(new Set(meanings)).toEqual(
      new Set([
        ...Array.from({ length: 10 }, (_, d) => `digit:${d}`),
        ...['enter', 'clear', 'fold', 'check', 'call', 'bet', 'raise', 'allin'],
        ...['call-floor', 'deal-done', 'confirm', 'hand-end', 'exposed', 'exposed-by-player'],
        ...['flashed', 'boxed', 'burn-exposed', 'collect'],
      ]),
    );
  });

  it('takes a badge reader, a numbered report and an own key map', () => {
    expect(
      parseHidKeypadConfig({
        id: 'badge-1',
        mode: 'badge',
        usb: { ...USB, serialNumber: 'B7' },
        reportId: 2,
      }),
    ).toEqual({
      id: 'badge-1',
      mode: 'badge',
      usb: { ...USB, serialNumber: 'B7' },
      reportId: 2,
      badgeGapMs: 500,
    });
    const floorButton = parseHidKeypadConfig({ id: 'floor-button', usb: USB, keys: { Enter: 'call-floor' } });
    expect(floorButton.mode === 'keypad' && floorButton.keys).toEqual({ Enter: 'call-floor' });
  });

  it('names each bad key and what is wrong with it', () => {
    expect(
      problems({
        id: 'rfid-keys',
        usb: { vendorId: '12', productId: '0001' },
        keys: { Numpad1: 'digit:1', NumpadFive: 'digit:5', F13: 'void' },
        entryTimeoutMs: 10,
      }),
    ).toBe(
      [
        'devices.keypad.id: an id starting with "rfid" is a card reader\'s',
        'devices.keypad.usb.vendorId: a USB id is 4 hex digits, as lsusb prints it (e.g. "2341")',
        'devices.keypad.keys.F13: "void" means nothing here: use digit:0 to digit:9, enter, clear, an act ' +
          '(fold, check, call, bet, raise, allin) or a dealer input (call-floor, deal-done, exposed…; README.md)',
        'devices.keypad.keys.NumpadFive: no key is named "NumpadFive": use KeyboardEvent.code names (Numpad1, NumpadEnter, F13…)',
        'devices.keypad.entryTimeoutMs: Too small: expected number to be >=1000',
      ].join('\n'),
    );
  });

  it('refuses an unknown mode, a missing USB id, and a key map on a badge reader', () => {
    expect(problems({ id: 'k', usb: USB, mode: 'mouse' })).toBe(
      'devices.keypad.mode: mode is keypad (the default) or badge',
    );
    expect(problems({ id: 'k' })).toMatch(/^devices\.keypad\.usb: /);
    expect(problems({ id: 'b', usb: USB, mode: 'badge', keys: {} })).toMatch(
      /^devices\.keypad: Unrecognized key: "keys"/,
    );
  });
});
