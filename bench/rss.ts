import { Subject } from 'rxjs';
import { type SourceEvent, tablePipeline } from '../src/controller/pipeline.js';
import { benchmark, progress } from './lib/child.js';
import { BENCH_TABLE_CONFIG, corpusEventsApart, replayedPasses } from './lib/corpus.js';
import { memoryMb, rounded } from './lib/stats.js';

/**
 * rss_mb_after_100k_hands: the table pipeline (sources merged and numbered, the table actor, one update
 * per event) fed the corpus's hands as fast as it takes them, the resident memory read after a warm-up
 * and after 100,000 hands more; each after a full GC, so that what is read is what is kept. Growth
 * between them is a leak; the JS heap's share of it says whether it is the table's (the heap) or
 * memory V8 merely keeps committed.
 *
 * The warm-up is long because V8 sizes its heap to the rate the process allocates at: fed this fast,
 * its young generation doubles (16 → 32 MB) and its old space commits more pages within the first
 * 10,000–20,000 hands, then stays put (measured every 10,000 hands up to 100,000). That sizing is bounded
 * and is no leak; `rss_mb_first_pass` keeps the figure from before it.
 */

const WARM_UP_HANDS = 20_000;
const HANDS = 100_000;

benchmark(async () => {
  const pass = await corpusEventsApart();
  const handsPerPass = pass.filter((event) => event.type === 'hand.start').length;
  const dealer = new Subject<SourceEvent>();
  let outputs = 0;
  const table = tablePipeline({ config: BENCH_TABLE_CONFIG, sources: [dealer] }).subscribe((update) => {
    outputs += update.outputs.length;
  });
  let hands = 0;
  let firstPass = { rss: 0, heap: 0 };
  let before = { rss: 0, heap: 0 };
  let started = 0;
  for (const event of replayedPasses(pass, Math.ceil((WARM_UP_HANDS + HANDS) / handsPerPass) + 1)) {
    if (event.type === 'hand.start') {
      if (hands === handsPerPass) firstPass = memoryMb();
      if (hands === WARM_UP_HANDS) {
        before = memoryMb();
        started = performance.now();
      }
      if (hands === WARM_UP_HANDS + HANDS) break;
      hands++;
    }
    dealer.next(event as SourceEvent);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = memoryMb();
  table.unsubscribe();
  progress(
    `rss: ${HANDS} hands after ${WARM_UP_HANDS} of warm-up in ${seconds.toFixed(0)} s, ${outputs} incidents and prompts`,
  );
  return {
    rss_mb_first_pass: rounded(firstPass.rss),
    rss_mb_before_100k_hands: rounded(before.rss),
    rss_mb_after_100k_hands: rounded(after.rss),
    rss_growth_100k_hands: rounded(after.rss / before.rss),
    heap_mb_before_100k_hands: rounded(before.heap),
    heap_mb_after_100k_hands: rounded(after.heap),
    pipeline_hands_per_s: rounded(HANDS / seconds),
  };
});
