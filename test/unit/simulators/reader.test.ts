import { describe, expect, it } from 'vitest';
import { frameCrc } from '../../../firmware-bridge/codec.js';
import type { Message } from '../../../firmware-bridge/messages.js';
import { slipEncode } from '../../../firmware-bridge/slip.js';
import {
  type AntennaMap,
  SimulatedReader,
  type SimulatedReaderOptions,
} from '../../../simulators/rfid-reader/reader.js';
import { ManualScheduler } from '../../../simulators/rfid-reader/scheduler.js';
import { type TestLine, testLine } from './line.js';

const ANTENNAS: AntennaMap = [
  { index: 0, label: 'seat:1' },
  { index: 1, label: 'seat:2' },
  { index: 2, label: 'board' },
];
const A = '04A1B2C3';
const B = '04A1B2C4';
const C = '04A1B2C5';

interface Rig {
  reader: SimulatedReader;
  clock: ManualScheduler;
  line: TestLine;
}

/** A started reader with no read noise unless asked; 300 ms rounds over 3 antennas: slots at 0, 100, 200. */
function rig(options: Partial<SimulatedReaderOptions> = {}): Rig {
  const clock = new ManualScheduler();
  const reader = new SimulatedReader({
    antennas: ANTENNAS,
    serial: 'SIM-7',
    firmware: '2.1.0',
    missProbability: 0,
    stackedMissProbability: 0,
    scheduler: clock,
    ...options,
  });
  const line = testLine();
  reader.start(line.stream);
  return { reader, clock, line };
}

/** A frame body with a right CRC, for commands `encodeMessage` refuses to make. */
function rawFrame(bytes: readonly number[]): Buffer {
  const body = Buffer.from([...bytes, 0, 0]);
  body.writeUInt16BE(frameCrc(body.subarray(0, -2)), body.length - 2);
  return slipEncode(body);
}

/** What a round-counting receiver sees of each read: the round the ROUND_ENDs before it place it in. */
function readsByRound(messages: readonly Message[]): { round: number; readerTimeMs: number }[] {
  let round = 0;
  return messages.flatMap((message) => {
    if (message.type === 'round-end') round = message.round + 1;
    if (message.type !== 'tag-read' && message.type !== 'tag-gone') return [];
    return [{ round, readerTimeMs: message.readerTimeMs }];
  });
}

describe('simulated RFID reader', () => {
  it('introduces itself first: HELLO with its antenna map, then HEALTH ok, numbered from 0', () => {
    const { line } = rig();
    expect(line.frames().slice(0, 2)).toEqual([
      {
        ok: true,
        seq: 0,
        dropped: 0,
        message: {
          type: 'hello',
          kind: 'rfid-reader',
          firmware: '2.1.0',
          serial: 'SIM-7',
          antennas: ANTENNAS,
        },
      },
      { ok: true, seq: 1, dropped: 0, message: { type: 'health', status: 'ok', code: 0, detail: '' } },
    ]);
  });

  it('sends a heartbeat every second with its uptime and the frames it sent', () => {
    const { clock, line } = rig({ heartbeatMs: 1000 });
    clock.advance(3000);
    const beats = line.frames().filter((frame) => frame.message.type === 'heartbeat');
    expect(beats.map(({ seq, message }) => ({ seq, message }))).toEqual(
      [1000, 2000, 3000].map((uptimeMs, i) => ({
        seq: beats[i]?.seq,
        message: { type: 'heartbeat', uptimeMs, framesSent: (beats[i]?.seq ?? -1) + 1 },
      })),
    );
  });

  it('re-reads a placed tag in every inventory round, at its antenna slot', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 1);
    clock.advance(3000);
    expect(
      line.of('tag-read').map(({ antenna, uid, readerTimeMs }) => ({ antenna, uid, readerTimeMs })),
    ).toEqual(
      Array.from({ length: 10 }, (_, round) => ({ antenna: 1, uid: A, readerTimeMs: 100 + 300 * round })),
    );
    for (const read of line.of('tag-read')) expect(read.rssi).toBeGreaterThanOrEqual(-49);
    expect(line.results.every((result) => result.ok)).toBe(true);
  });

  it('follows a changed inventory period from the next round', async () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    await line.command({ type: 'command', command: 'set-inventory-period', periodMs: 500 }, 0);
    clock.advance(1600);
    expect(line.of('ack')).toEqual([{ type: 'ack', ackSeq: 0 }]);
    // Read at 0 before the command, then rounds at 300, 800, 1300.
    expect(line.of('tag-read').map((read) => read.readerTimeMs)).toEqual([300, 800, 1300]);
  });

  it('reports a round in antenna order, not the order the cards landed in', () => {
    const { reader, clock, line } = rig();
    clock.advance(250);
    reader.place(C, 2); // lands first, just after the board's slot (200)
    clock.advance(30);
    reader.place(A, 0); // lands second
    clock.advance(300);
    expect(line.of('tag-read').map(({ uid, readerTimeMs }) => ({ uid, readerTimeMs }))).toEqual([
      { uid: A, readerTimeMs: 300 },
      { uid: C, readerTimeMs: 500 },
    ]);
  });

  it('sends TAG_GONE once when a tag stops answering, stamped with the round that missed it', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 1);
    clock.advance(650);
    reader.remove(A);
    clock.advance(1000);
    expect(line.of('tag-read').map((read) => read.readerTimeMs)).toEqual([100, 400]);
    expect(line.of('tag-gone')).toEqual([{ type: 'tag-gone', antenna: 1, uid: A, readerTimeMs: 700 }]);
  });

  it('moves a tag placed on another antenna: gone from the first, read on the second', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    clock.advance(350);
    reader.place(A, 2);
    clock.advance(300);
    expect(line.messages().filter((m) => m.type === 'tag-read' || m.type === 'tag-gone')).toEqual([
      { type: 'tag-read', antenna: 0, uid: A, rssi: expect.any(Number), readerTimeMs: 300 },
      { type: 'tag-read', antenna: 2, uid: A, rssi: expect.any(Number), readerTimeMs: 500 },
      { type: 'tag-gone', antenna: 0, uid: A, readerTimeMs: 600 },
    ]);
  });

  it('does not always read both of two stacked cards, while a lone card is read every round', () => {
    const { reader, clock, line } = rig({ stackedMissProbability: 0.3, seed: 3 });
    reader.place(A, 0);
    reader.place(B, 0);
    reader.place(C, 1);
    clock.advance(300 * 200 - 1);
    const reads = line.of('tag-read');
    const rounds = Array.from(
      { length: 200 },
      (_, round) => reads.filter((read) => read.antenna === 0 && read.readerTimeMs === 300 * round).length,
    );
    expect(rounds.filter((n) => n === 2).length).toBeGreaterThan(80);
    expect(rounds.filter((n) => n < 2).length).toBeGreaterThan(40);
    expect(reads.filter((read) => read.uid === C)).toHaveLength(200);
    // Stacked cards answer weaker.
    const rssi = (uid: string) => reads.filter((read) => read.uid === uid).map((read) => read.rssi);
    expect(Math.max(...rssi(A))).toBeLessThan(Math.min(...rssi(C)) + 8);
  });

  it('misses reads as its seed decides: the same seed gives the same bytes, another seed others', () => {
    const run = (seed: number) => {
      const { reader, clock, line } = rig({ missProbability: 0.2, seed });
      reader.place(A, 0);
      reader.place(B, 1);
      clock.advance(300 * 500);
      return line.messages().filter((m) => m.type === 'tag-read' || m.type === 'tag-gone');
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    const missRate = 1 - first.filter((m) => m.type === 'tag-read').length / 1000;
    expect(missRate).toBeGreaterThan(0.15);
    expect(missRate).toBeLessThan(0.25);
    // Each miss after a read is a TAG_GONE hint.
    expect(first.some((m) => m.type === 'tag-gone')).toBe(true);
  });

  it('shows dropped frames as sequence gaps at the decoder, counted exactly', () => {
    const { reader, clock, line } = rig({ seed: 5 });
    reader.place(A, 0);
    reader.place(B, 2);
    reader.dropFrames(0.3);
    clock.advance(10_000);
    reader.dropFrames(0);
    clock.advance(300);
    const counters = line.decoder.counters;
    expect(reader.framesDropped).toBeGreaterThan(10);
    expect(counters.droppedFrames).toBe(reader.framesDropped);
    expect(counters.sequenceGaps).toBeGreaterThan(5);
    expect(counters.framesOk + counters.droppedFrames).toBe(reader.framesSent);
    expect(line.results.every((result) => result.ok)).toBe(true);
    // The heartbeat's count says the same: frames sent against frames received.
    const lastBeat = line.of('heartbeat').at(-1);
    expect(lastBeat?.framesSent).toBeLessThanOrEqual(reader.framesSent);
  });

  it('loses no valid frame to garbage on the line between frames', () => {
    const clean = rig({ missProbability: 0.1, seed: 11 });
    const noisy = rig({ missProbability: 0.1, seed: 11 });
    for (const { reader } of [clean, noisy]) {
      reader.place(A, 0);
      reader.place(B, 1);
    }
    for (let i = 0; i < 300; i++) {
      noisy.reader.sendGarbage(1 + ((i * 37) % 200));
      clean.clock.advance(100);
      noisy.clock.advance(100);
    }
    expect(noisy.line.messages()).toEqual(clean.line.messages());
    expect(noisy.line.decoder.counters.droppedFrames).toBe(0);
    expect(noisy.line.decoder.counters.bytesDiscarded).toBeGreaterThan(0);
    expect(noisy.line.frames()).toHaveLength(noisy.reader.framesSent);
  });

  it('answers commands with ACK, identify with ACK then HELLO and HEALTH, others with NACK', async () => {
    const { clock, line } = rig();
    const map: AntennaMap = [
      { index: 4, label: 'seat:9' },
      { index: 7, label: 'muck' },
    ];
    await line.command({ type: 'command', command: 'set-antenna-map', antennas: map }, 10);
    await line.command({ type: 'command', command: 'identify', blinkSeconds: 3 }, 11);
    await line.command({ type: 'command', command: 'start-shuffle' }, 12);
    // set-inventory-period of 5 ms: below the protocol's 10 ms.
    await line.send(rawFrame([0x01, 0x20, 0x00, 13, 0x02, 0x00, 0x05]));
    await line.send(rawFrame([0x01, 0x20, 0x00, 14, 0x09]));
    clock.advance(10);
    const answers = line.messages().slice(2);
    expect(answers).toEqual([
      { type: 'ack', ackSeq: 10 },
      { type: 'ack', ackSeq: 11 },
      { type: 'hello', kind: 'rfid-reader', firmware: '2.1.0', serial: 'SIM-7', antennas: map },
      { type: 'health', status: 'ok', code: 0, detail: '' },
      { type: 'nack', ackSeq: 12, error: 'unsupported' },
      { type: 'nack', ackSeq: 13, error: 'bad-argument' },
      { type: 'nack', ackSeq: 14, error: 'unknown-command' },
    ]);
  });

  it('reads only the antennas of its current map', async () => {
    const { reader, clock, line } = rig();
    reader.place(A, 7);
    clock.advance(600);
    expect(line.of('tag-read')).toEqual([]);
    await line.command(
      { type: 'command', command: 'set-antenna-map', antennas: [{ index: 7, label: 'muck' }] },
      0,
    );
    clock.advance(600);
    expect(line.of('tag-read').map(({ antenna, uid }) => ({ antenna, uid }))).toEqual([
      { antenna: 7, uid: A },
      { antenna: 7, uid: A },
    ]);
  });

  it('goes silent offline, heartbeats and commands included, and resumes its clock when back', async () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    clock.advance(1000);
    const before = line.results.length;
    reader.goOffline();
    clock.advance(5000);
    await line.command({ type: 'command', command: 'identify', blinkSeconds: 0 }, 0);
    expect(line.results.length).toBe(before);
    reader.goOnline();
    clock.advance(1000);
    const after = line.messages().slice(before);
    expect(after.some((m) => m.type === 'hello')).toBe(false);
    expect(after.filter((m) => m.type === 'heartbeat')).toEqual([
      { type: 'heartbeat', uptimeMs: 7000, framesSent: expect.any(Number) },
    ]);
    expect(line.of('tag-read').at(-1)?.readerTimeMs).toBe(6900);
    expect(line.decoder.counters.droppedFrames).toBe(0);
  });

  it('reports a fault in HEALTH, stops reading, refuses settings, and reads again once cleared', async () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    clock.advance(400);
    reader.fault('antenna multiplexer stuck', 0x0102);
    clock.advance(1000);
    await line.command({ type: 'command', command: 'set-inventory-period', periodMs: 400 }, 3);
    expect(line.of('health').at(-1)).toEqual({
      type: 'health',
      status: 'fault',
      code: 0x0102,
      detail: 'antenna multiplexer stuck',
    });
    // The round at 0 came before the card.
    expect(line.of('tag-read').map((read) => read.readerTimeMs)).toEqual([300]);
    expect(line.of('nack')).toEqual([{ type: 'nack', ackSeq: 3, error: 'fault' }]);
    reader.clearFault();
    clock.advance(10);
    expect(line.of('health').at(-1)).toEqual({ type: 'health', status: 'ok', code: 0, detail: '' });
    expect(line.of('tag-read').at(-1)?.readerTimeMs).toBe(1400);
  });

  it('stops all activity on stop(), and boots afresh from sequence 0 on start()', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    clock.advance(1000);
    reader.stop();
    const before = line.results.length;
    clock.advance(5000);
    expect(line.results.length).toBe(before);
    const next = testLine();
    reader.start(next.stream);
    expect(next.frames()[0]).toMatchObject({ seq: 0, message: { type: 'hello' } });
    expect(next.of('tag-read')).toEqual([
      { type: 'tag-read', antenna: 0, uid: A, rssi: expect.any(Number), readerTimeMs: 0 },
    ]);
  });

  it('ends each round with ROUND_END right after its last antenna, numbered from 0, a period apart', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    reader.place(B, 1);
    reader.place(C, 2);
    clock.advance(2950);
    expect(line.of('round-end')).toEqual(
      Array.from({ length: 10 }, (_, round) => ({
        type: 'round-end',
        round,
        readerTimeMs: 200 + 300 * round,
        antennas: [0, 1, 2],
      })),
    );
    expect(reader.rounds).toBe(10);
    // Each round's reads in slot order, then its ROUND_END; the first slot ran before A was laid.
    const sequence = line
      .messages()
      .flatMap((m) =>
        m.type === 'tag-read' ? [`read ${m.antenna}`] : m.type === 'round-end' ? ['end'] : [],
      );
    expect(sequence).toEqual([
      ...['read 1', 'read 2', 'end'],
      ...Array.from({ length: 9 }, () => ['read 0', 'read 1', 'read 2', 'end']).flat(),
    ]);
  });

  it('puts every read of a round between the ROUND_END before it and its own, whatever the noise', () => {
    const { reader, clock, line } = rig({ missProbability: 0.3, stackedMissProbability: 0.3, seed: 9 });
    reader.place(A, 0);
    reader.place(B, 0);
    reader.place(C, 2);
    for (let step = 0; step < 100; step++) {
      clock.advance(37);
      if (step % 10 === 3) reader.place(A, step % 3);
    }
    const byRound = readsByRound(line.messages());
    expect(byRound.length).toBeGreaterThan(20);
    // Rounds start every 300 ms from boot, so the reader time says which round a read belongs to.
    for (const { round, readerTimeMs } of byRound) expect(round).toBe(Math.floor(readerTimeMs / 300));
    expect(line.of('tag-gone').length).toBeGreaterThan(0);
  });

  it('lists the antennas of each round, following a new map and period from the next round', async () => {
    const { clock, line } = rig();
    const map: AntennaMap = [
      { index: 7, label: 'muck' },
      { index: 4, label: 'seat:9' },
    ];
    await line.command({ type: 'command', command: 'set-antenna-map', antennas: map }, 0);
    await line.command({ type: 'command', command: 'set-inventory-period', periodMs: 500 }, 1);
    clock.advance(1600);
    // Round 0 (slots 0, 100, 200) ran on the old settings; from 300, two slots of 250 ms.
    expect(line.of('round-end')).toEqual([
      { type: 'round-end', round: 0, readerTimeMs: 200, antennas: [0, 1, 2] },
      { type: 'round-end', round: 1, readerTimeMs: 550, antennas: [4, 7] },
      { type: 'round-end', round: 2, readerTimeMs: 1050, antennas: [4, 7] },
      { type: 'round-end', round: 3, readerTimeMs: 1550, antennas: [4, 7] },
    ]);
  });

  it('sends no ROUND_END as a revision-1.0 board, reading as before', () => {
    const { reader, clock, line } = rig({ reportRounds: false });
    reader.place(A, 1);
    clock.advance(3000);
    expect(line.of('round-end')).toEqual([]);
    expect(line.of('tag-read')).toHaveLength(10);
    expect(reader.rounds).toBe(10);
  });

  it('numbers rounds on across a hang and a fault; a round cut short is finished by the next', () => {
    const { reader, clock, line } = rig();
    reader.place(A, 0);
    reader.place(C, 2);
    clock.advance(1000);
    reader.goOffline();
    clock.advance(5000);
    reader.goOnline();
    clock.advance(350);
    reader.fault('antenna multiplexer stuck');
    clock.advance(1000);
    reader.clearFault();
    clock.advance(300);
    // Rounds end at 200, 500, 800; back online at 6000: 6200; the round from 6300 is cut at 6350, and
    // restarted at 7350 it ends at 7550.
    expect(line.of('round-end').map(({ round, readerTimeMs }) => ({ round, readerTimeMs }))).toEqual([
      { round: 0, readerTimeMs: 200 },
      { round: 1, readerTimeMs: 500 },
      { round: 2, readerTimeMs: 800 },
      { round: 3, readerTimeMs: 6200 },
      { round: 4, readerTimeMs: 7550 },
    ]);
    expect(readsByRound(line.messages()).filter(({ round }) => round === 4)).toEqual([
      { round: 4, readerTimeMs: 6300 },
      { round: 4, readerTimeMs: 7350 },
      { round: 4, readerTimeMs: 7550 },
    ]);
  });

  it('numbers rounds from 0 again after a reboot', () => {
    const { reader, clock, line } = rig();
    clock.advance(1000);
    expect(line.of('round-end').map((end) => end.round)).toEqual([0, 1, 2]);
    reader.stop();
    const next = testLine();
    reader.start(next.stream);
    expect(reader.rounds).toBe(0);
    clock.advance(700);
    expect(next.of('round-end')).toEqual([
      { type: 'round-end', round: 0, readerTimeMs: 200, antennas: [0, 1, 2] },
      { type: 'round-end', round: 1, readerTimeMs: 500, antennas: [0, 1, 2] },
    ]);
  });

  it('refuses a configuration the protocol cannot carry, and a bad tag or antenna', () => {
    expect(() => new SimulatedReader({ antennas: [{ index: 0, label: '' }] })).toThrow();
    expect(() => new SimulatedReader({ antennas: ANTENNAS, inventoryPeriodMs: 5 })).toThrow();
    const { reader } = rig();
    expect(() => reader.place('XYZ', 0)).toThrow('not a tag UID');
    expect(() => reader.place(A, 256)).toThrow('not an index');
    expect(() => reader.dropFrames(2)).toThrow('not in 0-1');
  });
});
