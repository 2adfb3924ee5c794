import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
import { requireSocat } from './pty.js';

/*
 * Power cuts: `croupier start --demo` is killed with SIGKILL at random moments (mid-deal, with an
 * incident open, mid-procedure) and started again on the same journal, 50 times. Each time the table it
 * recovers is the one its events make (the journal replayed from the first event on a new machine, as
 * an uninterrupted run judged them), at the same sequence number, and no journaled event is missing.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KILLS = 50;
const TABLE = { seats: 10, profile: PROFILES['main-event-2014'], orderWindowMs: 300 };

interface Recovered {
  seq: number;
  state: string;
  status: string;
  incidentOpen: boolean;
}

requireSocat('the crash test');

/** Starts croupier; resolves with its recovery log line once the table is recovered. */
function start(config: string): { proc: ChildProcessWithoutNullStreams; recovered: Promise<Recovered> } {
  const proc = spawn(process.execPath, ['bin/croupier.js', 'start', '--demo', '--config', config], {
    cwd: ROOT,
  });
  const recovered = new Promise<Recovered>((resolve, reject) => {
    let rest = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const log = JSON.parse(line) as Recovered & { msg: string };
        if (log.msg === 'table recovered from the journal') resolve(log);
      }
    });
    proc.once('exit', (code) => reject(new Error(`croupier exited (${code}) before recovering`)));
  });
  return { proc, recovered };
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

describe('a power cut', () => {
  it(`at ${KILLS} random moments: croupier comes back to the same table, nothing journaled lost`, {
    timeout: 600_000,
  }, async ({ expect, onTestFinished }) => {
    const dir = await mkdtemp(join(tmpdir(), 'croupier-crash-'));
    const journal = join(dir, 'journal.db');
    const config = join(dir, 'croupier.json');
    await writeFile(
      config,
      JSON.stringify({ http: { port: 0 }, mqtt: { embedded: { port: 0 } }, journal: { path: journal } }),
    );
    let running: ChildProcessWithoutNullStreams | undefined;
    onTestFinished(async () => {
      running?.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    const random = mulberry32(2026);
    const seen = { dealing: 0, incidentOpen: 0 };
    let before = { seq: -1, state: '' };
    for (let kill = 0; kill <= KILLS; kill++) {
      const croupier = start(config);
      running = croupier.proc;
      const recovered = await croupier.recovered;
      expect(recovered, `restart ${kill}`).toMatchObject({
        seq: before.seq,
        state: before.state || recovered.state,
      });
      if (recovered.status === 'dealing') seen.dealing += 1;
      if (recovered.incidentOpen) seen.incidentOpen += 1;
      if (kill === KILLS) break;
      // Play on for a while, then the power goes.
      await new Promise((resolve) => setTimeout(resolve, 400 + random() * 2600));
      const exited = new Promise((resolve) => croupier.proc.once('exit', resolve));
      croupier.proc.kill('SIGKILL');
      await exited;
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
  });
});
