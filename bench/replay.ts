import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActor } from 'xstate';
import { recoverTable } from '../src/controller/recovery.js';
import type { DomainEvent } from '../src/domain/events.js';
import { canonicalJson } from '../src/journal/chain.js';
import { openJournal } from '../src/journal/store.js';
import { loadScenario } from '../src/scenario/load.js';
import { tableMachine } from '../src/table/machine.js';
import { benchmark, progress } from './lib/child.js';
import { BENCH_TABLE_CONFIG, corpusDocument, loadCorpus } from './lib/corpus.js';
import { writeNightJournal } from './lib/night-journal.js';
import { runCroupier } from './lib/process.js';
import { rounded } from './lib/stats.js';

/**
 * replay_10k_hands_s: `croupier replay` of one scenario file holding 10,000 hands of the corpus played
 * one after another (a long night at one table), from the command to its exit, every incident printed.
 */

const HANDS = 10_000;

/**
 * recovery_10k_hands_s: croupier's recovery (the last snapshot, then the events after it) of a journal
 * holding the same 10,000 hands, and journal_replay_10k_hands_s: the whole journal replayed from its
 * first event, both checked to rebuild the table the night ended with.
 */
function journalSeconds(path: string, events: readonly DomainEvent[]) {
  const journal = openJournal(path);
  try {
    const ended = writeNightJournal(journal, events, BENCH_TABLE_CONFIG);
    let started = performance.now();
    const recovered = recoverTable(journal, BENCH_TABLE_CONFIG);
    const recovery = (performance.now() - started) / 1000;
    started = performance.now();
    const replayed = createActor(tableMachine, { input: BENCH_TABLE_CONFIG }).start();
    for (const event of journal.eventsBetween(0, journal.lastSeq())) replayed.send(event);
    const replay = (performance.now() - started) / 1000;
    // Compared as the journal stores states: keys in order, nothing undefined.
    const same = (context: unknown) => canonicalJson(context) === canonicalJson(ended.context);
    if (!same(recovered.actor.getSnapshot().context) || !same(replayed.getSnapshot().context)) {
      throw new Error('the journal did not rebuild the table the night ended with');
    }
    return { recovery_10k_hands_s: rounded(recovery), journal_replay_10k_hands_s: rounded(replay) };
  } finally {
    journal.close();
  }
}

benchmark(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-replay-'));
  try {
    const night = corpusDocument(loadCorpus(), HANDS);
    const file = join(dir, 'night.json');
    const text = JSON.stringify(night);
    await writeFile(file, text);
    progress(`replay: ${night.events.length} events, ${(text.length / 2 ** 20).toFixed(1)} MB of JSON`);
    const started = performance.now();
    const { code, lines, stderr } = await runCroupier(['replay', file]);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`croupier replay exited ${code}: ${stderr}`);
    progress(`replay: ${lines} incidents and prompts`);
    return {
      replay_10k_hands_s: rounded(seconds),
      replay_10k_hands_events: night.events.length,
      ...journalSeconds(join(dir, 'journal.db'), loadScenario(night, file).events),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
