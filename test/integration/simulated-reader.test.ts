import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SerialPort } from 'serialport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type DecodedFrame,
  encodeMessage,
  FrameDecoder,
  type RejectedFrame,
} from '../../firmware-bridge/codec.js';
import type { MessageOf, MessageType } from '../../firmware-bridge/messages.js';
import { playScenario } from '../../simulators/rfid-reader/from-scenario.js';
import { SimulatedReader } from '../../simulators/rfid-reader/reader.js';
import { openSerialLink, type SerialLink, type SerialStatus } from '../../src/io/serial.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import {
  openDevicePort,
  requireSocat,
  startPtyPair,
  TEN_SEAT_ANTENNAS,
  TEN_SEAT_ZONES,
  within,
} from './pty.js';

/*
 * The simulated reader board as a real serial peer: it speaks on one end of a socat PTY pair through
 * node-serialport, croupier's serial link and frame decoder listen on the other. Killing socat is the unplug.
 */

const BAUD = 115_200;
const SCENARIO = '/work/shared/scenarios/me-premature-flop.yaml';

let dir = '';
/** Run after each test, newest first, so a failing test still stops the reader, closes ports and kills socat. */
let cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  requireSocat('the simulator integration tests');
  dir = await mkdtemp(join(tmpdir(), 'croupier-sim-reader-'));
});

afterEach(async () => {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await Promise.resolve(cleanup()).catch(() => undefined);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function startReader(port: SerialPort): SimulatedReader {
  const reader = new SimulatedReader({ antennas: TEN_SEAT_ANTENNAS, serial: 'SIM-IT-1', seed: 2014 });
  cleanups.push(() => reader.stop());
  reader.start(port);
  return reader;
}

interface Host {
  link: SerialLink;
  statuses: SerialStatus[];
  frames: DecodedFrame[];
  rejected: RejectedFrame[];
  of<T extends MessageType>(type: T): MessageOf<T>[];
  /** Sends `identify`, as croupier does on opening the link; resolves to the command's sequence number. */
  identify(): Promise<number>;
}

/** croupier's side: its serial link and a frame decoder, flushed when the link drops as the driver does. */
function openHost(path: string): Host {
  const link = openSerialLink({ device: { path }, baudRate: BAUD, backoff: { initialMs: 50, maxMs: 400 } });
  cleanups.push(() => link.close());
  const decoder = new FrameDecoder();
  let nextSeq = 0;
  const host: Host = {
    link,
    statuses: [],
    frames: [],
    rejected: [],
    of: <T extends MessageType>(type: T) =>
      host.frames
        .map((frame) => frame.message)
        .filter((message): message is MessageOf<T> => message.type === type),
    identify: async () => {
      const seq = nextSeq;
      nextSeq = (nextSeq + 1) & 0xffff;
      await link.write(encodeMessage({ type: 'command', command: 'identify', blinkSeconds: 0 }, seq));
      return seq;
    },
  };
  const collect = (results: ReturnType<FrameDecoder['push']>) => {
    for (const result of results) {
      if (result.ok) host.frames.push(result);
      else host.rejected.push(result);
    }
  };
  link.data$.subscribe((chunk) => collect(decoder.push(chunk)));
  link.status$.subscribe((status) => {
    host.statuses.push(status);
    if (status.state === 'closed') collect(decoder.flush());
  });
  return host;
}

/** Polls rather than sleeps, so a loaded machine only makes the test slower. */
async function until(ms: number, what: () => string, condition: () => boolean): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function untilState(host: Host, ms: number, state: SerialStatus['state'], from = 0): Promise<void> {
  return until(
    ms,
    () => `link ${state} (seen: ${host.statuses.map((s) => s.state).join(' → ')})`,
    () => host.statuses.slice(from).some((status) => status.state === state),
  );
}

function readOn(host: Host, uid: string, antenna: number, afterMs = -1): boolean {
  return host
    .of('tag-read')
    .some((read) => read.uid === uid && read.antenna === antenna && read.readerTimeMs > afterMs);
}

describe('simulated RFID reader over socat pseudo-terminals', () => {
  it('introduces itself and reports a deal from a shared scenario as TAG_READs on the right antennas', async () => {
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    const cards = scenario.events.flatMap((event) => (event.type === 'card.seen' ? [event] : []));
    const socat = await startPtyPair(dir, cleanups);
    const host = openHost(socat.host);
    await untilState(host, 5000, 'open');
    const reader = startReader(await openDevicePort(socat.device, cleanups));

    const playback = playScenario(reader, scenario.events, { antennas: TEN_SEAT_ZONES, speed: 2 });
    cleanups.push(() => playback.stop());
    await within(15_000, 'the scenario to play', playback.done);
    const unread = () => cards.filter((card) => !readOn(host, card.uid, TEN_SEAT_ZONES[card.zone] ?? -1));
    await until(
      10_000,
      () => `reads of ${unread().map((card) => `${card.uid} in ${card.zone}`)}`,
      () => unread().length === 0,
    );

    expect(cards).toHaveLength(10);
    expect(host.frames[0]?.message).toEqual({
      type: 'hello',
      kind: 'rfid-reader',
      firmware: '1.0.0',
      serial: 'SIM-IT-1',
      antennas: TEN_SEAT_ANTENNAS,
    });
    // No card is ever read anywhere but on its zone's antenna.
    const antennaOf = new Map(cards.map((card) => [card.uid, TEN_SEAT_ZONES[card.zone]]));
    for (const read of host.of('tag-read')) expect(read.antenna).toBe(antennaOf.get(read.uid));
    expect(host.rejected).toEqual([]);
    expect(host.frames.every((frame) => frame.dropped === 0)).toBe(true);
    expect(host.of('heartbeat').length).toBeGreaterThanOrEqual(3);
  });

  it('resumes the stream after an unplug and replug: identify answered, cards still read, clock going on', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const host = openHost(socat.host);
    await untilState(host, 5000, 'open');
    const reader = startReader(await openDevicePort(socat.device, cleanups));
    const first = '04A1B2C3';
    const second = '04A1B2C4';
    const late = '04A1B2C5';
    reader.place(first, 0);
    reader.place(second, 10);
    await until(
      10_000,
      () => 'both cards to be read',
      () => readOn(host, first, 0) && readOn(host, second, 10),
    );

    await socat.stop();
    const unplugged = host.statuses.length;
    await untilState(host, 2000, 'closed');
    const lastBefore = Math.max(...host.of('tag-read').map((read) => read.readerTimeMs));
    const heardBefore = host.frames.length;
    // A card dealt while the cable is out is read once it is back.
    reader.place(late, 2);

    const back = await startPtyPair(dir, cleanups);
    reader.attach(await openDevicePort(back.device, cleanups));
    await untilState(host, 10_000, 'open', unplugged);
    const ackSeq = await host.identify();

    await until(
      10_000,
      () => `the ACK, HELLO and reads after the replug (${host.frames.length - heardBefore} frames since)`,
      () =>
        host.of('ack').some((ack) => ack.ackSeq === ackSeq) &&
        readOn(host, first, 0, lastBefore) &&
        readOn(host, second, 10, lastBefore) &&
        readOn(host, late, 2),
    );
    const since = host.frames.slice(heardBefore);
    const ack = since.findIndex(({ message }) => message.type === 'ack' && message.ackSeq === ackSeq);
    expect(since[ack + 1]?.message).toMatchObject({
      type: 'hello',
      serial: 'SIM-IT-1',
      antennas: TEN_SEAT_ANTENNAS,
    });
    expect(since[ack + 2]?.message).toEqual({ type: 'health', status: 'ok', code: 0, detail: '' });
    // The same board, not a reboot: its sequence went on through the unplug (frames sent meanwhile are lost).
    expect(since[ack + 1]?.seq).toBeGreaterThan(
      host.frames[heardBefore - 1]?.seq ?? Number.POSITIVE_INFINITY,
    );
  });
});
