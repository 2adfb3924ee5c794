import type { CroupierConfig } from '../config/config.js';
import { PROFILES } from '../rules/index.js';
import type { TableConfig } from '../table/reduce.js';

/** The table machine's config from croupier's: live play and `croupier hands` replay the same table. */
export function tableConfigOf(config: CroupierConfig): TableConfig {
  const { table } = config;
  return {
    seats: table.seats,
    profile: PROFILES[table.profile],
    orderWindowMs: table.orderWindowMs,
    blinds: table.blinds,
    levels: table.levels,
    chipUnit: table.chipUnit,
    ...(table.rake !== undefined && { rake: table.rake }),
    decks: Object.keys(config.decks),
  };
}
