import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BootKeyboard,
  bootReport,
  KEY_NAMES,
  ledReport,
  ledsOf,
  usageOf,
} from '../../../../devices/hid-keypad/boot-keyboard.js';

const u = (key: string) => usageOf(key) as number;
const keysOf = (decoded: ReturnType<BootKeyboard['decode']>) =>
  decoded.ok ? decoded.pressed.map((p) => p.key) : decoded.reason;

describe('boot keyboard reports', () => {
  it('names keys by their KeyboardEvent.code, with the HID usage tables’ codes', () => {
    expect(usageOf('KeyA')).toBe(0x04);
    expect(usageOf('Digit0')).toBe(0x27);
    expect(usageOf('Enter')).toBe(0x28);
    expect(usageOf('F13')).toBe(0x68);
    expect(usageOf('F24')).toBe(0x73);
    expect(usageOf('NumpadEnter')).toBe(0x58);
    expect(usageOf('Numpad0')).toBe(0x62);
    expect(new Set(KEY_NAMES.map(usageOf)).size).toBe(KEY_NAMES.length);
  });

  it('reports a key when it goes down, not while it is held or when it goes up', () => {
    const keyboard = new BootKeyboard(null);
    expect(keysOf(keyboard.decode(bootReport([u('Numpad3')])))).toEqual(['Numpad3']);
    expect(keysOf(keyboard.decode(bootReport([u('Numpad3')])))).toEqual([]);
    expect(keysOf(keyboard.decode(bootReport([u('Numpad3'), u('NumpadAdd')])))).toEqual(['NumpadAdd']);
    expect(keysOf(keyboard.decode(bootReport([u('NumpadAdd')])))).toEqual([]);
    expect(keysOf(keyboard.decode(bootReport([])))).toEqual([]);
    expect(keysOf(keyboard.decode(bootReport([u('Numpad3')])))).toEqual(['Numpad3']);
  });

  it('keeps the held keys through a rollover report, which it refuses', () => {
    const keyboard = new BootKeyboard(null);
    keyboard.decode(bootReport([u('Numpad1')]));
    expect(keysOf(keyboard.decode(bootReport([1, 1, 1, 1, 1, 1])))).toBe(
      'more keys held than the keyboard can report (rollover): report ignored',
    );
    expect(keysOf(keyboard.decode(bootReport([u('Numpad1'), u('Numpad2')])))).toEqual(['Numpad2']);
  });

  it('forgets the held keys when the device goes away', () => {
    const keyboard = new BootKeyboard(null);
    keyboard.decode(bootReport([u('Numpad1')]));
    keyboard.release();
    expect(keysOf(keyboard.decode(bootReport([u('Numpad1')])))).toEqual(['Numpad1']);
  });

  it('tells shift, and gives an unnamed usage its code', () => {
    const keyboard = new BootKeyboard(null);
    expect(keyboard.decode(bootReport([u('KeyB'), 0x64], true))).toEqual({
      ok: true,
      pressed: [
        { key: 'KeyB', usage: 0x05, shift: true },
        { key: null, usage: 0x64, shift: true },
      ],
    });
  });

  it('strips the report id of a keyboard that numbers its reports, and refuses others', () => {
    const keyboard = new BootKeyboard(1);
    expect(keysOf(keyboard.decode(bootReport([u('F13')], false, 1)))).toEqual(['F13']);
    expect(keysOf(keyboard.decode(bootReport([u('F14')], false, 3)))).toBe(
      "report id 3 is not the keyboard's (1)",
    );
    expect(keysOf(keyboard.decode(bootReport([u('F14')])))).toBe("report id 0 is not the keyboard's (1)");
  });

  it('refuses a report of another length', () => {
    expect(keysOf(new BootKeyboard(null).decode(Uint8Array.of(0, 0, 4)))).toBe(
      'a boot keyboard report is 8 bytes, got 3',
    );
    expect(() => bootReport([4, 5, 6, 7, 8, 9, 10])).toThrow('at most 6 keys');
  });

  it('counts one press per key that goes from up to down, whatever the reports between', () => {
    const held = fc.uniqueArray(fc.constantFrom(...KEY_NAMES.slice(0, 12).map(u)), { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(held, { maxLength: 30 }), (reports) => {
        const keyboard = new BootKeyboard(null);
        let presses = 0;
        let before = new Set<number>();
        for (const keys of reports) {
          const decoded = keyboard.decode(bootReport(keys));
          if (decoded.ok) presses += decoded.pressed.length;
          presses -= keys.filter((key) => !before.has(key)).length;
          before = new Set(keys);
        }
        expect(presses).toBe(0);
      }),
    );
  });
});

describe('LED reports', () => {
  it('writes the report id (0 when not numbered) then the LED bits, and reads them back', () => {
    expect([...ledReport({ numLock: true }, null)]).toEqual([0, 0x01]);
    expect([...ledReport({ capsLock: true, scrollLock: true }, 2)]).toEqual([2, 0x06]);
    expect(ledsOf(ledReport({ numLock: true, scrollLock: true }, null))).toEqual({
      numLock: true,
      capsLock: false,
      scrollLock: true,
    });
    expect(ledsOf(Uint8Array.of(0))).toBeUndefined();
  });
});
