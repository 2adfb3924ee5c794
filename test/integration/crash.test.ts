import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { createActor } from 'xstate';
import { mulberry32 } from '../../simulators/random.js';
import { tableStateHash } from '../../src/controller/journaled-table.js';
import { openJournal } from '../../src/journal/store.js';
import { PROFILES } from '../../src/rules/index.js';
import { tableMachine } from '../../src/table/machine.js';
import type { TableConfig } from '../../src/table/reduce.js';
import { processesLeft, processesNaming } from '../leftovers.js';
import { requireSocat } from './pty.js';

/*
 * Power cuts: `croupier start --demo` is killed with SIGKILL at random moments (mid-deal, with an
 * incident open, mid-procedure) and started again on the same journal, 50 times. Each time the table it
 * recovers is the one its events make (the journal replayed from the first event on a new machine, as
 * an uninterrupted run judged them), at the same sequence number, and no journaled event is missing.
 *
 * The power goes as on a Pi: for croupier and every process it started at once (its process group).
 * croupier runs with its test's folder as TMPDIR, so what a cut leaves there and what still names that
 * folder are counted: no process, and no demo folder but the dead croupier's until the next start.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KILLS = 50;
/** The table croupier runs on the test's config: its defaults. */
const TABLE: TableConfig = {
  seats: 10,
  profile: PROFILES['main-event-2014'],
  orderWindowMs: 300,
  blinds: [50, 100],
  decks: ['A', 'B'],
};

interface Recovered {
  seq: number;
  state: string;
  phase: string;
  incidentOpen: boolean;
}

requireSocat('the crash test');

/**
 * Starts croupier, leading a process group of its own, its temporary files in `dir`; resolves with its
 * recovery log line once the table is recovered.
 */
function start(
  config: string,
  dir: string,
): { proc: ChildProcessWithoutNullStreams; recovered: Promise<Recovered> } {
  const proc = spawn(process.execPath, ['bin/croupier.js', 'start', '--demo', '--config', config], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, TMPDIR: dir },
  });
  const recovered = new Promise<Recovered>((resolve, reject) => {
    let rest = '';
    let said = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        said = line;
        const log = JSON.parse(line) as Recovered & { msg: string };
        if (log.msg === 'table recovered from the journal') resolve(log);
      }
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    proc.once('exit', (code) => reject(new Error(`croupier exited (${code}) before recovering:\n${said}`)));
  });
  return { proc, recovered };
}

/** Sends `signal` to croupier, or with `group` to its whole process group, and waits for its end. */
async function endWith(proc: ChildProcessWithoutNullStreams, signal: NodeJS.Signals, group = false) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  process.kill(group ? -(proc.pid as number) : (proc.pid as number), signal);
  await exited;
}

/** The power goes: croupier and every process it started die at once. */
const cutPower = (proc: ChildProcessWithoutNullStreams) => endWith(proc, 'SIGKILL', true);

/** The virtual tables' folders in `dir` (`croupier-table-<pid>-…`). */
async function tableFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('croupier-table-'));
}

/** The journal as the killed croupier left it: the state its events make, and whether any is missing. */
function replayJournal(path: string) {
  const journal = openJournal(path, { readonly: true });
  try {
    const seq = journal.lastSeq();
    const events = journal.eventsBetween(0, seq);
    const actor = createActor(tableMachine, { input: TABLE }).start();
    for (const event of events) actor.send(event);
    const verified = journal.verify();
    return { seq, state: tableStateHash(actor), contiguous: events.every((e, i) => e.seq === i), verified };
  } finally {
    journal.close();
  }
}

/** A folder with croupier's config on a journal of its own. */
async function tableDir(): Promise<{ dir: string; journal: string; config: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-crash-'));
  const journal = join(dir, 'journal.db');
  const config = join(dir, 'croupier.json');
  await writeFile(
    config,
    JSON.stringify({ http: { port: 0 }, mqtt: { embedded: { port: 0 } }, journal: { path: journal } }),
  );
  return { dir, journal, config };
}

describe('a power cut', () => {
  it(`at ${KILLS} random moments: croupier comes back to the same table, nothing journaled lost`, {
    timeout: 600_000,
  }, async ({ expect, onTestFinished }) => {
    const { dir, journal, config } = await tableDir();
    let running: ChildProcessWithoutNullStreams | undefined;
    onTestFinished(async () => {
      if (running) await cutPower(running).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });
    const random = mulberry32(2026);
    const seen = { dealing: 0, incidentOpen: 0 };
    let before = { seq: -1, state: '' };
    for (let kill = 0; kill <= KILLS; kill++) {
      const croupier = start(config, dir);
      running = croupier.proc;
      const recovered = await croupier.recovered;
      expect(recovered, `restart ${kill}`).toMatchObject({
        seq: before.seq,
        state: before.state || recovered.state,
      });
      // The start removed the folder the cut croupier left: only its own is there.
      expect(await tableFolders(dir), `restart ${kill}`).toEqual([
        expect.stringMatching(`^croupier-table-${croupier.proc.pid}-`),
      ]);
      if (recovered.phase === 'dealing') seen.dealing += 1;
      if (recovered.incidentOpen) seen.incidentOpen += 1;
      if (kill === KILLS) break;
      // Play on for a while, then the power goes.
      await new Promise((resolve) => setTimeout(resolve, 400 + random() * 2600));
      await cutPower(croupier.proc);
      expect(await processesLeft(dir), `kill ${kill}: processes outlived croupier`).toEqual([]);
      const left = replayJournal(journal);
      expect(left.verified, `kill ${kill}`).toMatchObject({ ok: true });
      expect(left.contiguous, `kill ${kill}: an event is missing`).toBe(true);
      expect(left.seq, `kill ${kill}: the journal went back`).toBeGreaterThanOrEqual(before.seq);
      before = { seq: left.seq, state: left.state };
    }
    // The kills fell across the game: while cards were being dealt, and with a procedure open.
    expect(seen.dealing).toBeGreaterThan(0);
    expect(seen.incidentOpen).toBeGreaterThan(0);
    expect(before.seq).toBeGreaterThan(KILLS * 3);
    // After all the cuts, a clean stop leaves nothing at all.
    await endWith(running as ChildProcessWithoutNullStreams, 'SIGTERM');
    expect(await processesLeft(dir)).toEqual([]);
    expect(await tableFolders(dir)).toEqual([]);
  });

  it('of croupier alone (`kill -9`, the OOM killer) takes its devices with it', async ({
    expect,
    onTestFinished,
  }) => {
    const { dir, config } = await tableDir();
    let running: ChildProcessWithoutNullStreams | undefined;
    onTestFinished(async () => {
      if (running) await cutPower(running).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });
    const first = start(config, dir);
    running = first.proc;
    await first.recovered;
    expect(processesNaming(dir), 'croupier and its 2 socat').toHaveLength(3);
    await endWith(first.proc, 'SIGKILL');
    // Its socat died with it (their parent-death signal), though nothing signalled them.
    expect(await processesLeft(dir)).toEqual([]);
    expect(await tableFolders(dir)).toEqual([expect.stringMatching(`^croupier-table-${first.proc.pid}-`)]);
    const second = start(config, dir);
    running = second.proc;
    await second.recovered;
    expect(await tableFolders(dir)).toEqual([expect.stringMatching(`^croupier-table-${second.proc.pid}-`)]);
    await endWith(second.proc, 'SIGTERM');
    expect(await processesLeft(dir)).toEqual([]);
    expect(await tableFolders(dir)).toEqual([]);
  });
});
