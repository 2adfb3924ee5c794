import { JournalError, sqliteFailure } from '../journal/errors.js';
import { clearingOf, clearingOfHalt, standingHalt } from '../journal/halts.js';
import { openJournal } from '../journal/store.js';
import { describeBroken, withDamage } from '../journal/verify.js';

/**
 * `croupier journal verify`: walks the journal's hash chain, read-only (the controller may be writing it
 * meanwhile), and names every broken record, the first first, with the supervisor who cleared it if one
 * did. Returns the exit code: 0 the chain is intact, 1 a record is broken (cleared or not) or a halt
 * stands uncleared, 2 the file cannot be read as a journal (a damaged one: the first record that cannot
 * be read is named).
 */
export function journalVerify(path: string): number {
  try {
    const journal = openJournal(path, { readonly: true });
    try {
      const { walked, history } = journal.audit();
      const say = (line: string) => process.stdout.write(`journal ${path}: ${line}\n`);
      for (const found of walked.breaks) {
        const clearing = clearingOf(history, found);
        const cleared = clearing
          ? ` (cleared by ${clearing.supervisor} at ${new Date(clearing.at).toISOString()})`
          : '';
        say(`${describeBroken(found)}${cleared}`);
      }
      const standing = standingHalt(history);
      if (walked.breaks.length === 0) {
        say(`${walked.records} records, chain intact (last hash ${walked.lastHash})`);
      }
      if (standing && !clearingOfHalt(history, standing)) {
        say(
          `croupier halted on ${describeBroken(standing.record)} at ${new Date(standing.at).toISOString()} (record ${standing.id}), and no supervisor has cleared it`,
        );
      }
      return walked.breaks.length > 0 || standing ? 1 : 0;
    } finally {
      journal.close();
    }
  } catch (error) {
    const failure = error instanceof JournalError ? error : sqliteFailure(path, error, 'cannot read');
    if (!failure) throw error;
    process.stderr.write(`${withDamage(failure).message}\n`);
    return 2;
  }
}
