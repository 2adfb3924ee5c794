import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { hand, hands } from '../../../src/cli/hands.js';
import { type Journal, openJournal } from '../../../src/journal/store.js';
import { recallHand, recentIncidents } from '../../../src/recall/recall.js';
import { journalNight } from '../../night-journal.js';
import { capturedOutput } from '../captured-output.js';

/*
 * Recall says what it cannot vouch for: every hand that holds a broken record, or comes after one, is
 * marked with it, on the command line and in the supervisor's last hands, and never called clean. The
 * journal: a night of four hands at one table, as the controller writes it.
 */

const folders: string[] = [];
const opened: Journal[] = [];
const output = capturedOutput();

afterEach(async () => {
  for (const journal of opened.splice(0)) journal.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function night() {
  const folder = await mkdtemp(join(tmpdir(), 'croupier-marks-'));
  folders.push(folder);
  const path = join(folder, 'journal.db');
  return { path, config: await journalNight(path) };
}

/** A record of hand `number`'s middle, changed by someone with the file: its body, still JSON. */
function tamperInHand(path: string, number: number): number {
  const reader = openJournal(path, { readonly: true });
  const held = reader.hand(number);
  reader.close();
  if (!held) throw new Error(`no hand ${number}`);
  const db = new Database(path);
  const id = held.firstRecord + 3;
  db.prepare(`UPDATE records SET body = json_set(body, '$.tampered', 1) WHERE id = ?`).run(id);
  db.close();
  return id;
}

function reader(path: string): Journal {
  const journal = openJournal(path, { readonly: true });
  opened.push(journal);
  return journal;
}

describe('recall marks what the chain cannot vouch for', () => {
  it('the hand holding a broken record, and every hand after it; none before', async () => {
    const { path, config } = await night();
    const broken = tamperInHand(path, 2);
    const journal = reader(path);
    const { walked, history } = journal.audit();
    const known = { breaks: walked.breaks, history };
    const recent = recentIncidents(journal, 10, config, known).reverse();
    expect(recent.map((h) => h.number)).toEqual([1, 2, 3, 4]);
    expect(recent.map((h) => h.broken?.where)).toEqual([undefined, 'in', 'after', 'after']);
    for (const marked of recent.slice(1)) {
      expect(marked.broken).toMatchObject({ record: broken, problem: 'hash' });
    }
    expect(recallHand(journal, 2, config, known)?.broken).toMatchObject({ record: broken, where: 'in' });
    expect(recallHand(journal, 1, config, known)?.broken).toBeUndefined();
  });

  it('a record put back as it was stays named by its halt; a clearing is said with who made it', async () => {
    const { path, config } = await night();
    const broken = tamperInHand(path, 3);
    const writer = openJournal(path);
    opened.push(writer);
    const { walked } = writer.audit();
    writer.halt(walked.breaks[0] as never);
    // Repaired, as someone might: the chain is whole again, yet hands 3 and 4 are still marked.
    const db = new Database(path);
    db.prepare(`UPDATE records SET body = json_remove(body, '$.tampered') WHERE id = ?`).run(broken);
    db.close();
    const after = writer.audit();
    expect(after.walked.breaks).toEqual([]);
    const marks = recentIncidents(writer, 10, config, { breaks: [], history: after.history });
    expect(marks.map((h) => h.broken?.where)).toEqual(['after', 'in', undefined, undefined]);
    writer.clearHalt('Marie', 'chain-broken', []);
    const cleared = recentIncidents(writer, 10, config, { breaks: [], history: writer.history() });
    expect(cleared[0]?.broken).toMatchObject({ record: broken, clearedBy: 'Marie' });
  });
});

describe('croupier hands and croupier hand N', () => {
  it('say which hands a broken record touches, and call none of those clean', async () => {
    const { path } = await night();
    const broken = tamperInHand(path, 3);
    expect(await hands({ journal: path })).toBe(0);
    const lines = output.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const [i, line] of lines.entries()) {
      const marked = i >= 2;
      expect(line.includes(`broken record ${broken} (its hash does not match its content)`), line).toBe(
        marked,
      );
      if (marked) expect(line).not.toMatch(/\tclean(\t|$)/);
    }
    expect(lines[2]).toContain(`chain: contains broken record ${broken}`);
    expect(lines[3]).toContain(`chain: follows broken record ${broken}`);

    output.stdout = '';
    expect(await hand(['3', '2'], { journal: path })).toBe(0);
    const headers = output.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.kind === 'hand');
    expect(headers).toMatchObject([
      { number: 3, broken: { record: broken, where: 'in', problem: 'hash' } },
      { number: 2 },
    ]);
    expect(headers[1].broken).toBeUndefined();
  });

  it('refuses a --last that is not a number of hands, saying so', async () => {
    const { path } = await night();
    expect(await hands({ journal: path, last: 'ten' })).toBe(2);
    expect(output.stderr).toBe('croupier: --last takes a number of hands (1 or more), not "ten"\n');
  });
});
