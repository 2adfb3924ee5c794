import { JournalError, sqliteFailure } from '../journal/errors.js';
import { type Journal, openJournal } from '../journal/store.js';
import { recallHand, recentIncidents } from '../recall/recall.js';
import { PROFILES } from '../rules/index.js';
import type { TableConfig } from '../table/reduce.js';
import { readConfig } from './read-config.js';

export interface RecallOptions {
  journal?: string | undefined;
  config?: string | undefined;
  last?: string | undefined;
}

/**
 * `croupier hands`: the last hands, one line each with its incidents and rulings. `croupier hand N…`:
 * each hand in full as JSON Lines (a header, then every event and every ruling in order), hole cards
 * included: for supervisors and surveillance, from the Pi's own journal. Exit 2 on a bad journal.
 */
export async function hands(options: RecallOptions): Promise<number> {
  return withJournal(options, (journal, config) => {
    const last = Number(options.last ?? 20);
    for (const hand of recentIncidents(journal, last, config).reverse()) {
      const rulings = hand.outputs.map((o) =>
        o.kind === 'incident' ? `${o.incident}→${o.ruling}` : o.prompt,
      );
      const events = hand.lastSeq - hand.firstSeq + 1;
      process.stdout.write(
        `hand ${hand.number}\t${new Date(hand.startedAt).toISOString()}\t${events} events\t${rulings.join(', ') || 'clean'}\n`,
      );
    }
    return 0;
  });
}

export async function hand(numbers: readonly string[], options: RecallOptions): Promise<number> {
  return withJournal(options, (journal, config) => {
    for (const text of numbers) {
      const recalled = /^\d+$/.test(text) ? recallHand(journal, Number(text), config) : null;
      if (!recalled) {
        process.stderr.write(`croupier: the journal holds no hand ${text}\n`);
        return 1;
      }
      const { lines, ...header } = recalled;
      const write = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
      write({ kind: 'hand', ...header, startedAt: new Date(header.startedAt).toISOString() });
      for (const line of lines) write(line.kind === 'event' ? { kind: 'event', ...line.event } : line);
    }
    return 0;
  });
}

/** The journal named on the command line (or in the config), read-only: the controller may be writing it. */
async function withJournal(
  { journal: path, config: file }: RecallOptions,
  use: (journal: Journal, config: TableConfig) => number,
): Promise<number> {
  const config = await readConfig(file);
  if (!config) return 2;
  const at = path ?? config.journal.path;
  let journal: Journal;
  try {
    journal = openJournal(at, { readonly: true });
  } catch (error) {
    const failure = error instanceof JournalError ? error : sqliteFailure(at, error, 'cannot read');
    if (!failure) throw error;
    process.stderr.write(`${failure.message}\n`);
    return 2;
  }
  try {
    return use(journal, { seats: config.table.seats, profile: PROFILES[config.table.profile] });
  } finally {
    journal.close();
  }
}
