import { describe, expect, it } from 'vitest';
import type { RfidEvent } from '../../../../devices/rfid-reader/driver.js';
import { Bench, BOOT, HELLO, SEAT, uid } from './bench.js';

/** The board's ROUND_END for its round `round`, ended at host time `time`. */
function roundEnd(bench: Bench, time: number, round: number): Bench {
  return bench.send(time, { type: 'round-end', round, readerTimeMs: time + BOOT, antennas: [0, 1, 2] });
}

/** Round ends and the rounds of tag arrivals, in a compact form. */
function rounds(events: readonly RfidEvent[]): string[] {
  return events.flatMap((event) => {
    if (event.kind === 'round.end') return [`end ${event.round} @${event.t}`];
    if (event.kind === 'tag.seen') return [`seen ${event.uid} round ${event.round ?? '?'} @${event.t}`];
    return [];
  });
}

describe('rfid-reader driver: inventory rounds (PROTOCOL.md ROUND_END)', () => {
  it('numbers the rounds it is told of, and gives each arrival the round under way', () => {
    const bench = new Bench().connect(0).heartbeats(0, 1000);
    bench.read(10, SEAT(1), uid(1));
    roundEnd(bench, 100, 41);
    bench.read(150, SEAT(2), uid(2));
    roundEnd(bench, 200, 42);
    bench.read(210, SEAT(3), uid(3));
    bench.read(290, SEAT(4), uid(4));
    roundEnd(bench, 300, 43);
    expect(rounds(bench.run(1000))).toEqual([
      // Before the first round's end, the round a read belongs to is unknown.
      `seen ${uid(1)} round ? @10`,
      'end 0 @100',
      `seen ${uid(2)} round 1 @150`,
      'end 1 @200',
      `seen ${uid(3)} round 2 @210`,
      `seen ${uid(4)} round 2 @290`,
      'end 2 @300',
    ]);
  });

  it('after a lost frame, gives no round until the next round end, and counts the rounds lost with it', () => {
    const bench = new Bench().connect(0).heartbeats(0, 1000);
    roundEnd(bench, 100, 7);
    // Round 8's end is lost on the line: its sequence number is used, its bytes never arrive.
    bench.at(200, () => bench.frame({ type: 'round-end', round: 8, readerTimeMs: 200 + BOOT, antennas: [] }));
    bench.read(250, SEAT(1), uid(1));
    roundEnd(bench, 300, 9);
    bench.read(350, SEAT(2), uid(2));
    expect(rounds(bench.run(1000))).toEqual([
      'end 0 @100',
      `seen ${uid(1)} round ? @250`,
      'end 2 @300',
      `seen ${uid(2)} round 3 @350`,
    ]);
  });

  it('numbers on after the board reboots, whose own count starts again at 0', () => {
    const bench = new Bench().connect(0).heartbeats(0, 1000);
    roundEnd(bench, 100, 500);
    roundEnd(bench, 200, 501);
    bench.send(300, HELLO).send(300, { type: 'health', status: 'ok', code: 0, detail: '' });
    bench.read(310, SEAT(1), uid(1));
    roundEnd(bench, 400, 0);
    bench.read(450, SEAT(2), uid(2));
    expect(rounds(bench.run(1000))).toEqual([
      'end 0 @100',
      'end 1 @200',
      `seen ${uid(1)} round ? @310`,
      'end 2 @400',
      `seen ${uid(2)} round 3 @450`,
    ]);
  });

  it('takes a round end for the board’s clock: a lifted card is gone at its grace’s end, not at the next heartbeat', () => {
    const bench = new Bench({ goneGraceMs: 1000 }).connect(0).heartbeats(0, 0).heartbeats(5000, 5000);
    for (let time = 0; time < 400; time += 100) bench.read(time + 10, SEAT(1), uid(1));
    bench.gone(410, SEAT(1), uid(1));
    for (let time = 100; time <= 2000; time += 100) roundEnd(bench, time, time / 100);
    const told = bench
      .run(6000)
      .flatMap((event) =>
        event.kind === 'tag.gone'
          ? [`gone @${event.t}`]
          : event.kind === 'round.end'
            ? [`end @${event.t}`]
            : [],
      );
    // Told with the first round end past its grace, four seconds before the next heartbeat.
    expect(told.slice(12, 16)).toEqual(['end @1300', 'end @1400', 'gone @1410', 'end @1500']);
  });

  it('refuses a round end from a board that has not said hello', () => {
    const bench = new Bench();
    bench.at(0, () => bench.state.next({ up: true }));
    roundEnd(bench, 100, 1);
    expect(rounds(bench.run(500))).toEqual([]);
    expect(bench.reader.counters()?.refused).toBe(1);
  });
});
