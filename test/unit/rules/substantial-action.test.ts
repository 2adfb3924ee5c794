import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../src/rules/index.js';
import type { ActionRecord } from '../../../src/rules/types.js';

const check = (seat: number): ActionRecord => ({ seat, chips: false });
const fold = check;
const bet = (seat: number): ActionRecord => ({ seat, chips: true });

// main-event-2014 uses the TDA definition, since it uses the term without defining it.
for (const id of ['main-event-2014', 'tda-2007'] as const) {
  describe(`${id} substantial action`, () => {
    const substantial = PROFILES[id].substantialAction;

    it('no action, one action: not substantial', () => {
      expect(substantial([])).toBe(false);
      expect(substantial([bet(4)])).toBe(false);
    });

    it('two checks: not substantial', () => {
      expect(substantial([check(4), check(5)])).toBe(false);
    });

    it('two actions of which one puts chips in: substantial', () => {
      expect(substantial([check(4), bet(5)])).toBe(true);
      expect(substantial([bet(4), fold(5)])).toBe(true);
    });

    it('any three actions: substantial', () => {
      expect(substantial([fold(4), fold(5), fold(6)])).toBe(true);
    });
  });
}

describe('french-casino substantial action: two players have bet after the blinds', () => {
  const substantial = PROFILES['french-casino'].substantialAction;

  it('one bettor, even twice: not yet', () => {
    expect(substantial([bet(4)])).toBe(false);
    expect(substantial([bet(4), fold(5), bet(4)])).toBe(false);
  });

  it('checks and folds never count', () => {
    expect(substantial([check(4), fold(5), fold(6), check(7)])).toBe(false);
    expect(substantial([bet(4), fold(5), fold(6)])).toBe(false);
  });

  it('two bettors: yes', () => {
    expect(substantial([bet(4), bet(5)])).toBe(true);
    expect(substantial([fold(3), bet(4), fold(5), bet(6)])).toBe(true);
  });
});
