import { tableConfigOf } from '../controller/table-config.js';
import { JournalError, sqliteFailure } from '../journal/errors.js';
import { type Journal, openJournal } from '../journal/store.js';
import { withDamage } from '../journal/verify.js';
import { describeMark, type KnownBreaks } from '../recall/marks.js';
import { recallHand, recentIncidents } from '../recall/recall.js';
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
 * included: for supervisors and surveillance, from the Pi's own journal. The whole chain is walked first:
 * a hand that holds or follows a broken record says so (`broken` in its header), and is never called
 * clean. Exit 2 on a bad journal, 1 when a hand cannot be read back.
 */
export async function hands(options: RecallOptions): Promise<number> {
  const last = Number(options.last ?? 20);
  if (!/^\d+$/.test(options.last ?? '20') || last < 1) {
    process.stderr.write(`croupier: --last takes a number of hands (1 or more), not "${options.last}"\n`);
    return 2;
  }
  return withJournal(options, (journal, config, known) => {
    for (const hand of recentIncidents(journal, last, config, known).reverse()) {
      const rulings = hand.outputs.map((o) =>
        o.kind === 'incident' ? `${o.incident}→${o.ruling}` : o.kind === 'award' ? `pot ${o.pot}` : o.prompt,
      );
      const events = hand.lastSeq - hand.firstSeq + 1;
      const ruled = rulings.join(', ') || (hand.broken || hand.unreadable ? 'no ruling' : 'clean');
      const marks = [
        ...(hand.broken ? [`chain: ${describeMark(hand.broken)}`] : []),
        ...(hand.unreadable ? [`unreadable: ${hand.unreadable}`] : []),
      ];
      process.stdout.write(
        `${[`hand ${hand.number}`, new Date(hand.startedAt).toISOString(), `${events} events`, ruled, ...marks].join('\t')}\n`,
      );
    }
    return 0;
  });
}

export async function hand(numbers: readonly string[], options: RecallOptions): Promise<number> {
  return withJournal(options, (journal, config, known) => {
    for (const text of numbers) {
      const recalled = /^\d+$/.test(text) ? recallHand(journal, Number(text), config, known) : null;
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

/**
 * The journal named on the command line (or in the config), read-only (the controller may be writing
 * it), its chain walked whole. A record that cannot be read back ends the command with its name.
 */
async function withJournal(
  { journal: path, config: file }: RecallOptions,
  use: (journal: Journal, config: TableConfig, known: KnownBreaks) => number,
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
    process.stderr.write(`${withDamage(failure).message}\n`);
    return 2;
  }
  try {
    const { walked, history } = journal.audit();
    return use(journal, tableConfigOf(config), { breaks: walked.breaks, history });
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    process.stderr.write(`croupier: ${error.message}\n`);
    return 1;
  } finally {
    journal.close();
  }
}
