import { describe, expect, it } from 'vitest';
import { lineChecksum } from '../../../../devices/shuffler/protocol.js';
import { ManualScheduler } from '../../../../simulators/rfid-reader/scheduler.js';
import {
  SimulatedShuffler,
  type SimulatedShufflerOptions,
} from '../../../../simulators/shuffler/shuffler.js';
import { FACES } from '../../../../src/domain/cards.js';
import { scenarioUid } from '../../../../src/domain/deck-registry.js';
import { type TestLine, testLine } from './line.js';

const deckOf = (id: string) => FACES.map((face) => scenarioUid(id, face));
const A = deckOf('A');
const B = deckOf('B');
const FOREIGN = '04A1B2C3';

interface Rig {
  shuffler: SimulatedShuffler;
  clock: ManualScheduler;
  line: TestLine;
}

/** A started shuffler knowing decks A and B; shuffles take 4 s. */
function rig(options: Partial<SimulatedShufflerOptions> = {}): Rig {
  const clock = new ManualScheduler();
  const shuffler = new SimulatedShuffler({ decks: { A, B }, serial: 'SIM-9', scheduler: clock, ...options });
  const line = testLine();
  shuffler.start(line.stream);
  return { shuffler, clock, line };
}

/** Sends a command with `id` and returns what the device said after it. */
async function ask({ line }: Rig, verb: 'IDENT' | 'QUERY' | 'SHUFFLE' | 'EJECT', id: number) {
  const before = line.messages().length;
  await line.command({ verb, id });
  return line.messages().slice(before);
}

const lastStatus = ({ line }: Rig) => line.of('STATUS').at(-1);

describe('simulated shuffler', () => {
  it('introduces itself: HELLO then STATUS idle, then a heartbeat every second naming the status', () => {
    const { clock, line } = rig();
    clock.advance(2000);
    expect(line.messages()).toEqual([
      { verb: 'HELLO', kind: 'shuffler', proto: 1, serial: 'SIM-9', fw: '1.0.0' },
      { verb: 'STATUS', gen: 0, state: 'idle', faceup: [], missing: [], extra: [] },
      { verb: 'HB', up: 1000, gen: 0 },
      { verb: 'HB', up: 2000, gen: 0 },
    ]);
    expect(line.results.every((result) => result.ok)).toBe(true);
  });

  it('shuffles a full deck over the shuffle time and reports it ready, counted and recognised', async () => {
    const rigged = rig();
    rigged.shuffler.load(B);
    expect(await ask(rigged, 'SHUFFLE', 4)).toEqual([
      { verb: 'ACK', id: 4 },
      { verb: 'STATUS', gen: 1, state: 'shuffling', faceup: [], missing: [], extra: [] },
    ]);
    rigged.clock.advance(3999);
    expect(lastStatus(rigged)?.state).toBe('shuffling');
    rigged.clock.advance(1);
    expect(lastStatus(rigged)).toEqual({
      verb: 'STATUS',
      gen: 2,
      state: 'ready',
      deck: 'B',
      count: 52,
      faceup: [],
      missing: [],
      extra: [],
    });
    rigged.clock.advance(1000);
    expect(rigged.line.of('HB').at(-1)?.gen).toBe(2);
  });

  it('finds a missing card, an extra one, another deck’s card and a face-up one', async () => {
    const rigged = rig();
    const [first, second, ...rest] = A;
    rigged.shuffler.load([...rest, FOREIGN, B[0] ?? '', rest[0] ?? ''], { faceUp: [rest[5] ?? ''] });
    await ask(rigged, 'SHUFFLE', 1);
    rigged.clock.advance(4000);
    expect(lastStatus(rigged)).toMatchObject({
      state: 'ready',
      deck: 'A',
      count: 53,
      faceup: [rest[5]],
      missing: [first, second],
    });
    expect(new Set(lastStatus(rigged)?.extra)).toEqual(new Set([FOREIGN, B[0], rest[0]]));
  });

  it('shuffles the same way for the same seed, and reports the order when asked to', async () => {
    const orders = await Promise.all(
      [7, 7, 8].map(async (seed) => {
        const rigged = rig({ seed, reportOrder: true });
        rigged.shuffler.load(A);
        await ask(rigged, 'SHUFFLE', 1);
        rigged.clock.advance(4000);
        return lastStatus(rigged)?.order ?? [];
      }),
    );
    expect(orders[0]).toEqual(orders[1]);
    expect(orders[0]).not.toEqual(orders[2]);
    expect(orders[0]).not.toEqual(A);
    expect([...(orders[0] ?? [])].sort()).toEqual([...A].sort());
  });

  it('hands the ready deck out on EJECT, in the shuffled order, and is idle and empty after', async () => {
    const rigged = rig({ reportOrder: true });
    rigged.shuffler.load(A);
    await ask(rigged, 'SHUFFLE', 1);
    rigged.clock.advance(4000);
    const order = lastStatus(rigged)?.order;
    expect(await ask(rigged, 'EJECT', 2)).toEqual([
      { verb: 'ACK', id: 2 },
      { verb: 'STATUS', gen: 3, state: 'idle', faceup: [], missing: [], extra: [] },
    ]);
    expect(rigged.shuffler.handedOut).toEqual(order);
    expect(rigged.shuffler.count).toBe(0);
  });

  it('NAKs what it cannot do, with the reason', async () => {
    const rigged = rig();
    expect(await ask(rigged, 'SHUFFLE', 1)).toEqual([{ verb: 'NAK', id: 1, reason: 'empty' }]);
    expect(await ask(rigged, 'EJECT', 2)).toEqual([{ verb: 'NAK', id: 2, reason: 'not-ready' }]);
    rigged.shuffler.load(A);
    await ask(rigged, 'SHUFFLE', 3);
    expect(await ask(rigged, 'SHUFFLE', 4)).toEqual([{ verb: 'NAK', id: 4, reason: 'busy' }]);
    expect(() => rigged.shuffler.load([FOREIGN])).toThrow('cards cannot go in while the shuffler shuffles');
  });

  it('answers IDENT with HELLO and STATUS, and QUERY with STATUS', async () => {
    const rigged = rig();
    expect((await ask(rigged, 'IDENT', 9)).map((message) => message.verb)).toEqual([
      'ACK',
      'HELLO',
      'STATUS',
    ]);
    expect(await ask(rigged, 'QUERY', 10)).toEqual([
      { verb: 'ACK', id: 10 },
      { verb: 'STATUS', gen: 0, state: 'idle', faceup: [], missing: [], extra: [] },
    ]);
  });

  it('stops on a jam, an open door or an error, refuses commands meanwhile, and is idle once cleared', async () => {
    const rigged = rig();
    rigged.shuffler.load(A);
    await ask(rigged, 'SHUFFLE', 1);
    rigged.clock.advance(1000);
    rigged.shuffler.fault('jam', 'E07');
    expect(lastStatus(rigged)).toMatchObject({ state: 'jam', code: 'E07' });
    rigged.clock.advance(5000);
    expect(lastStatus(rigged)?.state).toBe('jam');
    expect(await ask(rigged, 'SHUFFLE', 2)).toEqual([{ verb: 'NAK', id: 2, reason: 'jam' }]);
    rigged.shuffler.fault('door-open');
    expect(await ask(rigged, 'EJECT', 3)).toEqual([{ verb: 'NAK', id: 3, reason: 'door-open' }]);
    rigged.shuffler.clearFault();
    expect(lastStatus(rigged)?.state).toBe('idle');
    expect(rigged.shuffler.count).toBe(52);
    expect(await ask(rigged, 'SHUFFLE', 4)).toEqual([
      expect.objectContaining({ verb: 'ACK' }),
      expect.anything(),
    ]);
  });

  it('says what it is told to in scripted play', () => {
    const rigged = rig();
    rigged.shuffler.present({
      state: 'ready',
      deck: 'A',
      count: 51,
      faceup: [],
      missing: [A[3] ?? ''],
      extra: [],
    });
    expect(lastStatus(rigged)).toEqual({
      verb: 'STATUS',
      gen: 1,
      state: 'ready',
      deck: 'A',
      count: 51,
      faceup: [],
      missing: [A[3]],
      extra: [],
    });
    expect(() =>
      rigged.shuffler.present({ state: 'ready', faceup: ['nope'], missing: [], extra: [] }),
    ).toThrow(/faceup.0 is not a tag UID/);
  });

  it('writes garbage lines and corrupts lines on demand, each caught by the receiver', () => {
    const rigged = rig({ seed: 3 });
    rigged.shuffler.sendGarbage(40);
    rigged.shuffler.corruptLines(1);
    rigged.clock.advance(3000);
    const rejected = rigged.line.results.filter((result) => !result.ok);
    expect(rejected).toHaveLength(4);
    expect(rigged.line.of('HB')).toEqual([]);
    expect(() => rigged.shuffler.corruptLines(2)).toThrow(RangeError);
  });

  it('says nothing and hears nothing while silent, then goes on without a HELLO', async () => {
    const rigged = rig();
    rigged.shuffler.goSilent();
    rigged.clock.advance(3000);
    expect(await ask(rigged, 'QUERY', 1)).toEqual([]);
    rigged.shuffler.resume();
    rigged.clock.advance(1000);
    expect(rigged.line.messages().map((message) => message.verb)).toEqual(['HELLO', 'STATUS', 'HB']);
  });

  it('ignores and counts host lines it cannot check or that are not commands', async () => {
    const rigged = rig();
    await rigged.line.send('SHUFFLE id=1*0000\r\n');
    await rigged.line.send(`HB up=1 gen=0*${lineChecksum('HB up=1 gen=0')}\r\n`);
    expect(rigged.shuffler.linesRefused).toBe(2);
    expect(rigged.line.messages()).toHaveLength(2);
  });

  it('goes on through an unplug and replug: the status changed meanwhile comes at the next IDENT', async () => {
    const rigged = rig();
    rigged.shuffler.load(A);
    rigged.line.stream.destroy();
    rigged.shuffler.present({ state: 'ready', deck: 'A', count: 52, faceup: [], missing: [], extra: [] });
    const replugged = testLine();
    rigged.shuffler.attach(replugged.stream);
    rigged.clock.advance(1000);
    await replugged.command({ verb: 'IDENT', id: 0 });
    expect(replugged.messages().map((message) => message.verb)).toEqual(['HB', 'ACK', 'HELLO', 'STATUS']);
    expect(replugged.of('STATUS')[0]).toMatchObject({ gen: 1, state: 'ready', deck: 'A' });
    expect(replugged.of('HB')[0]?.gen).toBe(1);
  });
});
