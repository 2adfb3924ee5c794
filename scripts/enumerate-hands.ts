import { FACES, type Face } from '../src/domain/cards.js';
import { bestHand, HAND_CATEGORIES, type HandCategory } from '../src/domain/hand-rank.js';

/**
 * `npm run enumerate-hands`: every one of the 133,784,560 seven-card hands through bestHand, counted by
 * category against the textbook counts. It takes a minute or so (README "Performance"), so it is no
 * test: test/unit/domain/hand-rank.test.ts checks a million random hands against the reference evaluator.
 * Exit code 1 on any difference.
 */

const EXPECTED: Readonly<Record<HandCategory, number>> = {
  STRAIGHT_FLUSH: 41_584,
  FOUR_OF_A_KIND: 224_848,
  FULL_HOUSE: 3_473_184,
  FLUSH: 4_047_644,
  STRAIGHT: 6_180_020,
  THREE_OF_A_KIND: 6_461_620,
  TWO_PAIR: 31_433_400,
  PAIR: 58_627_800,
  HIGH_CARD: 23_294_460,
};

const counts = Object.fromEntries(HAND_CATEGORIES.map((category) => [category, 0])) as Record<
  HandCategory,
  number
>;
const hand: Face[] = [];
const started = performance.now();
const cpuStarted = process.cpuUsage();

/** Every hand that completes `hand` (its first `size` cards chosen) with cards from `from` on. */
function deal(size: number, from: number): void {
  if (size === 7) {
    counts[bestHand(hand).category]++;
    return;
  }
  for (let card = from; card <= FACES.length - (7 - size); card++) {
    hand[size] = FACES[card] as Face;
    deal(size + 1, card + 1);
  }
  if (size === 1)
    process.stderr.write(`  ${hand[0]} done, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}

deal(0, 0);
const seconds = (performance.now() - started) / 1000;
// CPU time beside the wall clock: on a shared machine the two part ways.
const { user, system } = process.cpuUsage(cpuStarted);
const cpuSeconds = (user + system) / 1e6;
let total = 0;
let wrong = 0;
for (const category of [...HAND_CATEGORIES].reverse()) {
  const count = counts[category];
  total += count;
  if (count !== EXPECTED[category]) wrong++;
  const mark = count === EXPECTED[category] ? 'ok' : `expected ${EXPECTED[category].toLocaleString('en')}`;
  process.stdout.write(`${category.padEnd(16)} ${count.toLocaleString('en').padStart(11)}  ${mark}\n`);
}
process.stdout.write(
  `${'total'.padEnd(16)} ${total.toLocaleString('en').padStart(11)}  in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU)\n`,
);
process.exitCode = wrong === 0 && total === 133_784_560 ? 0 : 1;
