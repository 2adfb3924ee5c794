import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocks, passed, warns } from '../../../src/doctor/check.js';
import { checkDiskSpace, checkJournal } from '../../../src/doctor/storage.js';
import { hostSystem } from '../../../src/doctor/system.js';
import { journalPath, rawHandle, writtenJournal } from '../journal/journal-fixtures.js';
import { config, errno, fakeSystem, GB } from './fake-system.js';

const MB = 1024 ** 2;
/** The real file system: the journal tests write real journals. */
const disk = fakeSystem({ access: hostSystem().access });
const journalAt = (path: string) => config({ journal: { path } });
const asideAdvice = (path: string) =>
  `keep the file for the audit and tell surveillance; to play on, move it aside (sudo mv ${path} ${path}.broken) and croupier starts a new journal`;

describe('doctor: the journal', () => {
  it('passes a folder where croupier will start one', async () => {
    const path = journalPath();
    expect(await checkJournal(journalAt(path), disk)).toEqual(
      passed('journal', `none yet: croupier starts ${path} at its first start`),
    );
  });

  it('walks the whole chain of one', async () => {
    const path = writtenJournal(2);
    expect(await checkJournal(journalAt(path), disk)).toEqual(
      passed('journal', `${path}: 10 records, chain intact`),
    );
  });

  it('names the first broken record, and says to keep the file', async () => {
    const path = writtenJournal(2);
    rawHandle(path).prepare("UPDATE records SET body = replace(body, 'Ah', 'Ac') WHERE id = 4").run();
    expect(await checkJournal(journalAt(path), disk)).toEqual(
      blocks(
        'journal',
        `${path}: record 4 (seq 2, kind event) is broken: its hash does not match its content`,
        asideAdvice(path),
      ),
    );
  });

  it('refuses a file that is no journal', async () => {
    const path = journalPath();
    writeFileSync(path, 'not a database, but a file that happens to be there'.repeat(100));
    const check = await checkJournal(journalAt(path), disk);
    expect(check.problem).toMatch(new RegExp(`^journal ${path}: `));
    expect(check.advice).toBe(asideAdvice(path));
    expect(check.blocking).toBe(true);
  });

  it("says how to make its folder croupier's", async () => {
    const said = async (code: string) => {
      const system = fakeSystem({ access: async () => Promise.reject(errno(code)) });
      const { problem, advice } = await checkJournal(journalAt('/var/lib/croupier/journal.db'), system);
      return { problem, advice };
    };
    expect(await said('ENOENT')).toEqual({
      problem: '/var/lib/croupier does not exist',
      advice: 'sudo install -d -o croupier -g croupier -m 0750 /var/lib/croupier',
    });
    expect(await said('EACCES')).toEqual({
      problem: "croupier's user may not write /var/lib/croupier",
      advice:
        'sudo chown croupier:croupier /var/lib/croupier, and run doctor as croupier (sudo croupier doctor)',
    });
    expect(await said('EROFS')).toEqual({
      problem: '/var/lib/croupier is on a read-only file system',
      advice:
        'the journal needs a durable, writable disk: with a read-only root, mount a data partition on /var/lib/croupier',
    });
  });

  it('gives croupier a journal it may not write', async () => {
    const path = writtenJournal(1);
    const system = fakeSystem({
      access: async (_path, mode) => (mode === 'read-write' ? Promise.reject(errno('EACCES')) : undefined),
    });
    expect(await checkJournal(journalAt(path), system)).toEqual(
      blocks('journal', `croupier's user may not write ${path}`, `sudo chown croupier:croupier ${path}*`),
    );
  });
});

describe("doctor: the journal's disk", () => {
  const at = '/var/lib/croupier/journal.db';
  const free = (bytes: number) =>
    fakeSystem({
      freeBytes: async (path) => {
        expect(path).toBe(dirname(at));
        return bytes;
      },
    });
  const advice =
    'free some (sudo journalctl --vacuum-size=100M; old files in /var/lib/croupier), or keep fewer days of hands (journal.keepDays)';

  it('passes 1 GB and more', async () => {
    expect(await checkDiskSpace(journalAt(at), free(12.5 * GB))).toEqual(
      passed('disk', '12.5 GB free for the journal'),
    );
  });

  it('warns under 1 GB and blocks under 100 MB', async () => {
    expect(await checkDiskSpace(journalAt(at), free(640 * MB))).toEqual(
      warns('disk', 'only 640 MB free for the journal', advice),
    );
    expect(await checkDiskSpace(journalAt(at), free(99 * MB))).toEqual(
      blocks('disk', '99 MB free for the journal: it halts the table when full', advice),
    );
  });

  it('says when it cannot tell', async () => {
    const system = fakeSystem({
      freeBytes: async () => Promise.reject(errno('ENOENT', 'ENOENT: no such folder')),
    });
    expect(await checkDiskSpace(journalAt(at), system)).toEqual(
      warns(
        'disk',
        'cannot tell the free space of /var/lib/croupier: ENOENT: no such folder',
        'df -h shows it',
      ),
    );
  });
});
