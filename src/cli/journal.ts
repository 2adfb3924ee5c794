import { JournalError, sqliteFailure } from '../journal/errors.js';
import { openJournal } from '../journal/store.js';
import { describeBroken } from '../journal/verify.js';

/**
 * `croupier journal verify`: walks the journal's hash chain, read-only (the controller may be writing it
 * meanwhile). Returns the exit code: 0 the chain is intact, 1 a record is broken (the first one is named),
 * 2 the file cannot be read as a journal.
 */
export function journalVerify(path: string): number {
  try {
    const journal = openJournal(path, { readonly: true });
    try {
      const result = journal.verify();
      process.stdout.write(
        result.ok
          ? `journal ${path}: ${result.records} records, chain intact (last hash ${result.lastHash})\n`
          : `journal ${path}: ${describeBroken(result)}\n`,
      );
      return result.ok ? 0 : 1;
    } finally {
      journal.close();
    }
  } catch (error) {
    const failure = error instanceof JournalError ? error : sqliteFailure(path, error, 'cannot read');
    if (!failure) throw error;
    process.stderr.write(`${failure.message}\n`);
    return 2;
  }
}
