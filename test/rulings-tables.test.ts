import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INCIDENTS } from '../src/rules/types.js';
import { rulingsOfTables } from './rulings-tables.js';

const RULINGS_MD = readFileSync(join(import.meta.dirname, '../../shared/RULINGS.md'), 'utf8');
const PROFILES = ['main-event-2014', 'french-casino', 'tda-2007'];
const found = rulingsOfTables(RULINGS_MD, PROFILES);

function rulings(profile: string, incident: string): (string | null)[] {
  const all = found.filter((r) => r.profile === profile && r.incident === incident).map((r) => r.ruling);
  return [...new Set(all)].sort();
}

// The corpus coverage test is only as good as this reading: spot checks of each kind of cell.
describe("RULINGS.md's incident tables, as read for the corpus coverage test", () => {
  it('reads each ruling a cell names, branch by branch', () => {
    expect(rulings('main-event-2014', 'MIXED_DECK')).toEqual(['CALL_FLOOR', 'HAND_VOID', 'REDEAL_BOARD']);
    expect(rulings('french-casino', 'MISSING_CARD')).toEqual(['GIVE_TOP_CARD', 'HAND_DEAD', 'MISDEAL']);
    expect(rulings('tda-2007', 'RIVER_NO_BURN')).toEqual(['CALL_FLOOR']);
  });

  it('reads "same" as the first profile column, and "every profile" as each profile', () => {
    expect(rulings('tda-2007', 'DECK_FACE_UP')).toEqual(['DECK_REJECTED']);
    expect(PROFILES.map((profile) => rulings(profile, 'CARD_NOT_RETURNED'))).toEqual([
      ['CALL_FLOOR'],
      ['CALL_FLOOR'],
      ['CALL_FLOOR'],
    ]);
  });

  it('reads FLASHED_CARD as the rulings of the rows of EXPOSED_CARD by the dealer, per profile', () => {
    expect(rulings('tda-2007', 'FLASHED_CARD')).toEqual(['CALL_FLOOR', 'MISDEAL', 'REPLACE_AT_END']);
    expect(rulings('main-event-2014', 'FLASHED_CARD')).toEqual(['MISDEAL', 'REPLACE_AT_END']);
    expect(rulings('tda-2007', 'EXPOSED_CARD')).toEqual([
      'CALL_FLOOR',
      'CARD_LIVE',
      'MISDEAL',
      'REPLACE_AT_END',
    ]);
  });

  it('reads a prompt as a prompt, and a ruling of a later table as a ruling', () => {
    expect(rulings('french-casino', 'ALL_IN_SHOWDOWN')).toEqual([null]);
    expect(rulings('tda-2007', 'WINNING_HAND_MUCKED')).toEqual(['RETRIEVE_WINNING_HAND']);
  });

  it('finds a row for every incident the machine raises but PROCEDURE_NOT_FOLLOWED (prose only)', () => {
    const incidents = new Set(found.map((r) => r.incident));
    expect(INCIDENTS.filter((incident) => !incidents.has(incident))).toEqual(['PROCEDURE_NOT_FOLLOWED']);
  });

  it('refuses a profile cell with no ruling code rather than dropping the row', () => {
    const table = [
      '`ME` = `main-event-2014`',
      '',
      '| incident | ME |',
      '|---|---|',
      '| `X_CARD` | deal on |',
    ];
    expect(() => rulingsOfTables(table.join('\n'), PROFILES)).toThrow(
      'RULINGS.md: no ruling code for main-event-2014 in "`X_CARD`": "deal on"',
    );
  });
});
