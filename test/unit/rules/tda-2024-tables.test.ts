import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULINGS } from '../../../src/rules/types.js';
import { CATALOGUE } from '../../rulings-catalogue.js';
import { rulingsOfTables } from '../../rulings-tables.js';

const CONTRACT = readFileSync(join(import.meta.dirname, '../../../../shared/RULINGS-tda-2024.md'), 'utf8');
// RULINGS-tda-2024.md's T24 column; its "TDA today" column is tda-2007 as encoded, which RULINGS.md covers.
const found = rulingsOfTables(CONTRACT, ['tda-2024'], RULINGS).filter((r) => r.profile === 'tda-2024');

const pair = (incident: string, ruling: string | null) => `${incident} ${ruling ?? 'prompt'}`;

describe("RULINGS-tda-2024.md's T24 column", () => {
  it('is read row by row, a prompt as a prompt', () => {
    const rulings = (incident: string) =>
      [...new Set(found.filter((r) => r.incident === incident).map((r) => r.ruling))].sort();
    expect(rulings('FOREIGN_CARD')).toEqual(['CALL_FLOOR', 'MISDEAL', 'SCRAP_CARD']);
    expect(rulings('FLASHED_CARD')).toEqual(['MISDEAL', 'REPLACE_AT_END']);
    expect(rulings('FLOP_NO_BURN')).toEqual(['CONTINUE', 'FLOP_SCRAMBLE']);
    expect(rulings('ALL_IN_SHOWDOWN')).toEqual([null]);
  });

  it('gives no (incident, ruling) pair the rules catalogue leaves out for tda-2024', () => {
    const catalogued = new Set(
      CATALOGUE.map((entry) => pair(entry.facts.incident, entry.expected['tda-2024'])),
    );
    const incidents = found.filter((r) => r.ruling !== null);
    expect(incidents.length).toBeGreaterThan(30);
    expect(
      [...new Set(incidents.map((r) => pair(r.incident, r.ruling)))].filter((p) => !catalogued.has(p)),
    ).toEqual([]);
  });
});
