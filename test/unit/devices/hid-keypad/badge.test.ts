import { describe, expect, it } from 'vitest';
import { BadgeTyping } from '../../../../devices/hid-keypad/badge.js';
import type { KeyPress } from '../../../../devices/hid-keypad/boot-keyboard.js';

const press = (key: string | null, usage = 0x64): KeyPress => ({ key, usage, shift: false });

/** Types `keys` one every `gap` ms from `start`. */
function type(typing: BadgeTyping, keys: readonly string[], start = 0, gap = 10) {
  return keys.flatMap((key, i) => typing.press(press(key), start + i * gap));
}

const hex = (text: string) => [...text].map((c) => (/\d/.test(c) ? `Digit${c}` : `Key${c}`));
const UID = '04A1B2C3';

describe('badge reads', () => {
  it('gives the UID typed before Enter, from either digit row, in upper case', () => {
    const typing = new BadgeTyping(500);
    expect(type(typing, [...hex(UID), 'Enter'])).toEqual([{ uid: UID }]);
    expect(type(typing, ['Numpad1', 'Numpad2', 'KeyF', 'Digit0', 'NumpadEnter'], 1000)).toEqual([
      { uid: '12F0' },
    ]);
  });

  it('drops a read typed with a pause, and starts again at the late key', () => {
    const typing = new BadgeTyping(500);
    expect(type(typing, hex('04A1'))).toEqual([]);
    expect(type(typing, [...hex(UID), 'Enter'], 2000)).toEqual([
      { rejected: 'badge read dropped: no Enter within 500 ms' },
      { uid: UID },
    ]);
  });

  it('refuses a key that is no hex digit, a short read and a long one, never saying the characters read', () => {
    const typing = new BadgeTyping(500);
    const outcomes = [
      ...type(typing, [...hex('04A1'), 'KeyG', 'Enter']),
      ...type(typing, [...hex('04A'), 'Enter'], 1000),
      ...type(typing, [...hex('A'.repeat(65)), 'Enter'], 2000, 1),
      ...typing.press(press(null, 0x87), 5000),
    ];
    expect(outcomes).toEqual([
      { rejected: 'badge read dropped: the badge reader typed KeyG' },
      { rejected: 'badge read too short: 0 characters' },
      { rejected: 'badge read too short: 3 characters' },
      { rejected: 'badge read dropped: longer than 64 characters' },
      { rejected: 'badge read too short: 0 characters' },
      { rejected: 'badge read dropped: the badge reader typed an unnamed key (usage 0x87)' },
    ]);
    for (const outcome of outcomes) expect(JSON.stringify(outcome)).not.toMatch(/04A|AAAA/);
  });
});
