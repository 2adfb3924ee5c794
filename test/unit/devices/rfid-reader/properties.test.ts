import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../firmware-bridge/messages.js';
import { chunked } from '../../firmware-bridge/arbitraries.js';
import { Bench, BOOT, HELLO, MUCK, PUCK, presence, SEAT, statuses, uid } from './bench.js';

interface Step {
  time: number;
  message: Message;
}

const ROUND_MS = 300;

function tagRead(time: number, antenna: number, tag: string): Step {
  return { time, message: { type: 'tag-read', antenna, uid: tag, rssi: -55, readerTimeMs: time + BOOT } };
}

function everyRound(from: number, to: number, antenna: number, tag: string): Step[] {
  const steps: Step[] = [];
  for (let time = from; time < to; time += ROUND_MS) steps.push(tagRead(time, antenna, tag));
  return steps;
}

function heartbeats(to: number): Step[] {
  return Array.from({ length: Math.floor(to / 1000) + 1 }, (_, i) => ({
    time: i * 1000,
    message: { type: 'heartbeat', uptimeMs: i * 1000 + BOOT, framesSent: 0 },
  }));
}

/** Steps in time order; steps at the same time keep the order they were listed in. */
function inTimeOrder(...groups: Step[][]): Step[] {
  return groups.flat().sort((a, b) => a.time - b.time);
}

/** A card dealt and kept, one removed, one mucked, the puck: frames every 100 ms or so. */
const SCRIPT = inTimeOrder(
  [
    { time: 0, message: HELLO },
    { time: 0, message: { type: 'health', status: 'ok', code: 0, detail: '' } },
  ],
  heartbeats(8000),
  everyRound(100, 8000, SEAT(1), uid(1)),
  everyRound(200, 3000, SEAT(2), uid(2)),
  everyRound(250, 2000, SEAT(3), uid(3)),
  everyRound(2300, 8000, MUCK, uid(3)),
  everyRound(150, 8000, SEAT(4), PUCK),
);

/** Runs `steps` with the link up at 0; `chunks(frames)` says which bytes arrive at each step's time. */
function play(steps: readonly Step[], chunks: (frames: Buffer[]) => Buffer[][]): Bench {
  const bench = new Bench().at(0, () => bench.state.next({ up: true }));
  const arrivals = chunks(steps.map((step) => bench.frame(step.message)));
  steps.forEach((step, i) => {
    bench.at(step.time, () => {
      for (const chunk of arrivals[i] ?? []) bench.bytes.next(chunk);
    });
  });
  bench.run(8000);
  return bench;
}

function withoutTimes(lines: readonly string[]): string[] {
  return lines.map((line) => line.replace(/ @\d+$/, ''));
}

describe('rfid-reader driver: properties', () => {
  const clean = play(SCRIPT, (frames) => frames.map((frame) => [frame]));

  it('the reference script gives the expected presence', () => {
    expect(withoutTimes(presence(clean.events))).toEqual([
      `tag.seen ${uid(1)} seat:1`,
      'puck.seen seat:4',
      `tag.seen ${uid(2)} seat:2`,
      `tag.seen ${uid(3)} seat:3`,
      `tag.seen ${uid(3)} muck`,
      `tag.gone ${uid(2)} seat:2`,
    ]);
  });

  it('loses no read to any chunking, or to garbage between frames', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 24 }), { minLength: SCRIPT.length, maxLength: SCRIPT.length }),
        fc.array(fc.nat(), { maxLength: 80 }),
        (garbage, cuts) => {
          const noisy = play(SCRIPT, (frames) => {
            // Each step's bytes: its garbage, then its frame. A chunk arrives with its last byte's step.
            const parts = frames.map((frame, i) => Buffer.concat([garbage[i] ?? Buffer.alloc(0), frame]));
            const owner = parts.flatMap((part, i) => Array<number>(part.length).fill(i));
            const arrivals: Buffer[][] = parts.map(() => []);
            let end = 0;
            for (const chunk of chunked(Buffer.concat(parts), cuts)) {
              end += chunk.length;
              if (chunk.length > 0) arrivals[owner[end - 1] ?? 0]?.push(chunk);
            }
            return arrivals;
          });
          expect(withoutTimes(presence(noisy.events))).toEqual(withoutTimes(presence(clean.events)));
          // Statuses may differ on the way (bytes held back long enough look like silence), not in the end.
          expect(withoutTimes(statuses(noisy.events)).at(-1)).toBe('online');
        },
      ),
    );
  });

  it('settles a card read by two neighbouring antennas, whatever rounds each one misses', () => {
    const rounds = 32;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: rounds, maxLength: rounds }),
        (misses) => {
          const bench = new Bench().connect(0).heartbeats(0, rounds * ROUND_MS);
          const antennas = [SEAT(3), SEAT(4)];
          const streaks = [0, 0];
          misses.forEach((missed, round) => {
            antennas.forEach((antenna, a) => {
              // A card lying between two seats is still read by each of them at least every third round.
              const streak = streaks[a] ?? 0;
              const miss = (missed[a] ?? false) && streak < 2;
              streaks[a] = miss ? streak + 1 : 0;
              if (!miss) bench.read(round * ROUND_MS + 40 * a, antenna, uid(1));
            });
          });
          const events = presence(bench.run(rounds * ROUND_MS));
          expect(events.filter((line) => line.startsWith('tag.gone'))).toEqual([]);
          const zones = events.map((line) => line.split(' ')[2]);
          expect(zones).toHaveLength(2);
          expect(new Set(zones).size).toBe(2);
        },
      ),
    );
  });

  it('sees each card of a clean deal exactly once, through re-reads and missed reads', () => {
    const seats = [1, 2, 3, 5, 6, 9];
    const cards = seats.length * 2;
    const end = 15_000;
    const roundsPerCard = Math.ceil(end / ROUND_MS);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: ROUND_MS - 1 }), {
          minLength: seats.length,
          maxLength: seats.length,
        }),
        fc.array(fc.integer({ min: 0, max: 150 }), { minLength: cards, maxLength: cards }),
        fc.array(
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
            minLength: roundsPerCard,
            maxLength: roundsPerCard,
          }),
          {
            minLength: cards,
            maxLength: cards,
          },
        ),
        (phases, jitter, chances) => {
          const steps: Step[][] = [heartbeats(end)];
          for (let card = 0; card < cards; card++) {
            const seatIndex = card % seats.length;
            const antenna = SEAT(seats[seatIndex] ?? 1);
            const tag = uid(100 + card);
            // Pitched in deal order every 400 ms; the seat antenna's rounds have their own phase.
            const pitched = 1000 + card * 400 + (jitter[card] ?? 0);
            const phase = phases[seatIndex] ?? 0;
            let round = Math.ceil((pitched - phase) / ROUND_MS);
            let streak = 0;
            const reads: Step[] = [];
            for (const chance of chances[card] ?? []) {
              // The second card of a seat lies on the first: the board reads them one after the other.
              const time = phase + round * ROUND_MS + (card >= seats.length ? 7 : 0);
              round++;
              if (time >= end) break;
              // Stacked cards miss rounds (at most two running); the board says TAG_GONE at the first.
              const missed = reads.length > 0 && chance < 0.3 && streak < 2;
              if (missed && streak === 0) {
                reads.push({
                  time,
                  message: { type: 'tag-gone', antenna, uid: tag, readerTimeMs: time + BOOT },
                });
              }
              streak = missed ? streak + 1 : 0;
              if (!missed) reads.push(tagRead(time, antenna, tag));
            }
            steps.push(reads);
          }
          const bench = new Bench().connect(0);
          for (const step of inTimeOrder(...steps)) bench.send(step.time, step.message);
          const events = bench.run(end);
          const seen = events.filter((event) => event.kind === 'tag.seen');
          expect(seen.map((event) => event.uid).sort()).toEqual(
            Array.from({ length: cards }, (_, card) => uid(100 + card)).sort(),
          );
          expect(events.filter((event) => event.kind === 'tag.gone')).toEqual([]);
          expect(events.filter((event) => event.kind === 'rejected')).toEqual([]);
        },
      ),
      { numRuns: 50 },
    );
  });
});
