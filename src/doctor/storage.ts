import { dirname, resolve } from 'node:path';
import type { CroupierConfig } from '../config/config.js';
import { messageOf } from '../io/serial.js';
import { JournalError, sqliteFailure } from '../journal/errors.js';
import { openJournal } from '../journal/store.js';
import { describeBroken } from '../journal/verify.js';
import { blocks, type Check, errnoOf, passed, warns } from './check.js';
import type { DoctorSystem } from './system.js';

const MB = 1024 * 1024;
/** Below this the journal may fill the disk within days: the table halts when it does. */
const WARN_BELOW = 1024 * MB;
const BLOCK_BELOW = 100 * MB;

/**
 * The journal croupier writes every event to before the table sees it: its folder writable, the file (once
 * there) croupier's and its hash chain whole from end to end.
 */
export async function checkJournal(config: CroupierConfig, system: DoctorSystem): Promise<Check> {
  const path = resolve(config.journal.path);
  const folder = dirname(path);
  try {
    await system.access(folder, 'write');
  } catch (error) {
    return blocks('journal', unwritable(folder, error), folderAdvice(folder, error));
  }
  try {
    await system.access(path, 'exists');
  } catch {
    return passed('journal', `none yet: croupier starts ${path} at its first start`);
  }
  try {
    await system.access(path, 'read-write');
  } catch (error) {
    return blocks('journal', unwritable(path, error), `sudo chown croupier:croupier ${path}*`);
  }
  const advice = `keep the file for the audit and tell surveillance; to play on, move it aside (sudo mv ${path} ${path}.broken) and croupier starts a new journal`;
  try {
    const journal = openJournal(path, { readonly: true });
    try {
      const result = journal.verify();
      if (result.ok) {
        const records = result.records === 1 ? '1 record' : `${result.records} records`;
        return passed('journal', `${path}: ${records}, chain intact`);
      }
      return blocks('journal', `${path}: ${describeBroken(result)}`, advice);
    } finally {
      journal.close();
    }
  } catch (error) {
    const failure = error instanceof JournalError ? error : sqliteFailure(path, error, 'cannot read');
    if (!failure) throw error;
    return blocks('journal', failure.message, advice);
  }
}

/** Room on the journal's disk: the table halts when the journal cannot write. */
export async function checkDiskSpace(config: CroupierConfig, system: DoctorSystem): Promise<Check> {
  const folder = dirname(resolve(config.journal.path));
  let free: number;
  try {
    free = await system.freeBytes(folder);
  } catch (error) {
    return warns('disk', `cannot tell the free space of ${folder}: ${messageOf(error)}`, 'df -h shows it');
  }
  const said = free >= WARN_BELOW ? `${(free / WARN_BELOW).toFixed(1)} GB` : `${Math.floor(free / MB)} MB`;
  const advice = `free some (sudo journalctl --vacuum-size=100M; old files in ${folder}), or keep fewer days of hands (journal.keepDays)`;
  if (free < BLOCK_BELOW)
    return blocks('disk', `${said} free for the journal: it halts the table when full`, advice);
  if (free < WARN_BELOW) return warns('disk', `only ${said} free for the journal`, advice);
  return passed('disk', `${said} free for the journal`);
}

function unwritable(path: string, error: unknown): string {
  switch (errnoOf(error)) {
    case 'ENOENT':
      return `${path} does not exist`;
    case 'EROFS':
      return `${path} is on a read-only file system`;
    case 'EACCES':
    case 'EPERM':
      return `croupier's user may not write ${path}`;
    default:
      return `${path}: ${messageOf(error)}`;
  }
}

function folderAdvice(folder: string, error: unknown): string {
  switch (errnoOf(error)) {
    case 'ENOENT':
      return `sudo install -d -o croupier -g croupier -m 0750 ${folder}`;
    case 'EROFS':
      return `the journal needs a durable, writable disk: with a read-only root, mount a data partition on ${folder}`;
    default:
      return `sudo chown croupier:croupier ${folder}, and run doctor as croupier (sudo croupier doctor)`;
  }
}
