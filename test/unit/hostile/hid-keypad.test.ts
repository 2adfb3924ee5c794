import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BootKeyboard, bootReport } from '../../../devices/hid-keypad/boot-keyboard.js';
import { KeyEntry, MEANINGS } from '../../../devices/hid-keypad/entry.js';
import { generatedInputs } from '../../../fuzz/harness.js';
import { keypadReports } from '../../../fuzz/keypad-reports.js';
import { MAX_SEATS } from '../../../src/domain/seats.js';

describe('keypad reports and key grammar: hostile input', () => {
  it('turns every generated run of reports into entries or refusals with a reason, and keeps the next entry', () => {
    fc.assert(
      fc.property(generatedInputs(keypadReports), (input) => keypadReports.check(input) !== undefined),
      {
        numRuns: 500,
      },
    );
  });

  it('does the same for reports of any bytes and length, in both modes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('keypad', 'badge' as const),
        fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 30 }),
        (mode, reports) => keypadReports.check({ mode, reports }) !== undefined,
      ),
      { numRuns: 300 },
    );
  });

  it('names what is wrong with a report', () => {
    const keyboard = new BootKeyboard(1);
    // An empty report once read "report id undefined is not the keyboard's (1)".
    expect(keyboard.decode(Uint8Array.of())).toEqual({
      ok: false,
      reason: "an empty report, without the keyboard's report id (1)",
    });
    expect(keyboard.decode(Uint8Array.of(2, 0, 0, 0, 0, 0, 0, 0, 0))).toEqual({
      ok: false,
      reason: "report id 2 is not the keyboard's (1)",
    });
    expect(keyboard.decode(Uint8Array.of(1, 0, 0))).toEqual({
      ok: false,
      reason: 'a boot keyboard report is 8 bytes, got 2',
    });
    expect(keyboard.decode(bootReport([0x01, 0x01, 0x01, 0x01, 0x01, 0x01], false, 1))).toEqual({
      ok: false,
      reason: 'more keys held than the keyboard can report (rollover): report ignored',
    });
  });

  it('never lets a seat out of range or an endless amount through, whatever is keyed', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...MEANINGS), { maxLength: 40 }), (meanings) => {
        const grammar = new KeyEntry(10_000);
        for (const outcome of meanings.flatMap((meaning, i) => grammar.press(meaning, i))) {
          if ('rejected' in outcome) {
            expect(outcome.rejected).not.toBe('');
            continue;
          }
          const { entry } = outcome;
          if (entry.seat !== undefined) expect(entry.seat >= 1 && entry.seat <= MAX_SEATS).toBe(true);
          if (entry.kind === 'action' && entry.amount !== undefined) expect(entry.amount).toBeLessThan(1e9);
        }
      }),
      { numRuns: 300 },
    );
  });
});
