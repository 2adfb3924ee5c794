import { mulberry32 } from '../simulators/random.js';
import type { Face } from '../src/domain/cards.js';
import { benchmark, progress } from './lib/child.js';
import { median, memoryMb, rounded } from './lib/stats.js';

/**
 * evaluator_hands_per_s: seven-card hands through bestHand (src/domain/hand-rank.ts), faces in, category
 * and strength out; evaluator_library_hands_per_s: the same hands through @pokertools/evaluator alone,
 * card codes made in advance (the wrapper's floor); evaluator_load_rss_mb: what loading the library and
 * its tables adds to the process (README "Performance": why this library).
 */

const HANDS = 1_000_000;
const RUNS = 7;

/** Hands per second of `evaluate` over `hands`; the sum keeps the JIT from dropping the calls. */
function rate<T>(hands: readonly T[], evaluate: (hand: T) => number): number {
  let sum = 0;
  const started = performance.now();
  for (const hand of hands) sum += evaluate(hand);
  const elapsedMs = performance.now() - started;
  if (sum === 0) throw new Error('no hand was scored');
  return (hands.length / elapsedMs) * 1000;
}

benchmark(async () => {
  const before = memoryMb().rss;
  const library = await import('@pokertools/evaluator');
  const { bestHand } = await import('../src/domain/hand-rank.js');
  const { FACES } = await import('../src/domain/cards.js');
  library.evaluate(library.getCardCodes(['As', 'Ks', 'Qs', 'Js', 'Ts', '2d', '3c']));
  const loaded = memoryMb().rss - before;

  const random = mulberry32(7);
  const hands = Array.from({ length: HANDS }, (): Face[] => {
    const deck = [...FACES];
    for (let i = 0; i < 7; i++) {
      const j = i + Math.floor(random() * (deck.length - i));
      [deck[i], deck[j]] = [deck[j] as Face, deck[i] as Face];
    }
    return deck.slice(0, 7);
  });
  const codes = hands.map((hand) => library.getCardCodes(hand));
  progress(`evaluator: ${HANDS.toLocaleString('en')} seven-card hands per run, ${RUNS} runs`);
  const ours = (hand: readonly Face[]) => bestHand(hand).strength;
  // Warm-up: the JIT sees both paths before anything is timed.
  rate(hands, ours);
  rate(codes, library.evaluate);
  const rates = { ours: [] as number[], library: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    rates.ours.push(rate(hands, ours));
    rates.library.push(rate(codes, library.evaluate));
  }
  return {
    evaluator_hands_per_s: rounded(median(rates.ours)),
    evaluator_library_hands_per_s: rounded(median(rates.library)),
    evaluator_load_rss_mb: rounded(loaded),
  };
});
