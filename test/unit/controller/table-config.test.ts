import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/config.js';
import { tableConfigOf } from '../../../src/controller/table-config.js';
import { PROFILES } from '../../../src/rules/index.js';

describe("the table machine's config", () => {
  it('carries the table, its rulebook, its chip unit and rake, and its decks in rotation', () => {
    const config = parseConfig({
      table: {
        seats: 9,
        profile: 'tda-2024',
        orderWindowMs: 250,
        chipUnit: 25,
        rake: { percent: 5, cap: 300 },
      },
      decks: { red: 'simulated', blue: 'simulated' },
    });
    expect(tableConfigOf(config)).toEqual({
      seats: 9,
      profile: PROFILES['tda-2024'],
      orderWindowMs: 250,
      blinds: [50, 100],
      levels: undefined,
      chipUnit: 25,
      rake: { percent: 5, cap: 300 },
      decks: ['red', 'blue'],
    });
  });

  it('takes no rake on its defaults', () => {
    expect(tableConfigOf(parseConfig({}))).not.toHaveProperty('rake');
  });
});
