import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import type { TablePlay } from '../../simulators/virtual-table/play.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText, type Scenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { cleanupsOf, type LiveTable, playOn, startLiveTable, type Undo, until } from './live-table.js';
import { startMosquitto } from './mosquitto.js';
import { requireSocat } from './pty.js';

/*
 * The faults a card room produces, on the controller as `croupier start` runs it: a reader unplugged
 * mid-hand, line noise between the reader's frames, the broker restarting. None may lose a fact or
 * raise a false incident.
 */

requireSocat('the fault tests');

const PREMATURE_FLOP = fileURLToPath(
  new URL('../../../shared/scenarios/me-premature-flop.yaml', import.meta.url),
);
const CLEAN_HAND = fileURLToPath(
  new URL('../../../shared/scenarios/clean-nine-handed.json', import.meta.url),
);
/** The premature flop's last hole card, and the first action after it. */
const LAST_HOLE_CARD = 8;
const FIRST_ACTION = 9;

describe.concurrent('faults on a live table', () => {
  it('shows an unplugged reader offline within 2 s and resumes the same hand with no false incident', {
    timeout: 90_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    // A pause after the deal, long enough to pull the cable and plug it back.
    const scenario = withPause(await load(PREMATURE_FLOP), FIRST_ACTION, 8000);
    const live = await startLiveTable({ push: (step) => undo.push(step) }, { table: tableOf(scenario) });
    const play = await dealOn(live, scenario, undo);

    const unplugged = performance.now();
    await live.table.unplugReader();
    await until(
      2000,
      () => 'the reader shown offline',
      () => readerStatus(live) === 'offline',
    );
    const offlineAfterMs = performance.now() - unplugged;
    await live.table.replugReader();
    await readerOnline(live);
    await play.done;

    const expected = replayEvents(configOf(scenario), scenario.events).map(publicOutput);
    expect(expected.map((output) => output.kind === 'incident' && output.incident)).toEqual([
      'PREMATURE_FLOP',
    ]);
    expect(await incidentsOf(live, play, expected.length)).toEqual(expected);
    expect(offlineAfterMs).toBeLessThan(2000);
  });

  it('loses no valid frame to 10,000 bursts of garbage between the reader’s frames', {
    timeout: 90_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const scenario = await load(CLEAN_HAND);
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: tableOf(scenario), seed: 7 },
    );
    await readerOnline(live);
    const before = readerCounters(live);
    const play = playOn(live, scenario.events);
    undo.push(async () => play.stop());
    let bursts = 0;
    const noise = setInterval(() => {
      for (let i = 0; i < 4 && bursts < 10_000; i++, bursts++)
        live.table.reader.sendGarbage(1 + (bursts % 40));
    }, 1);
    undo.push(async () => clearInterval(noise));
    await play.done;
    await until(
      30_000,
      () => `10,000 bursts (${bursts} sent)`,
      () => bursts >= 10_000,
    );
    clearInterval(noise);
    await until(
      5000,
      () => `the reads of events ${play.unread().join(', ')}`,
      () => play.unread().length === 0,
    );
    await sleep(1000);

    const after = readerCounters(live);
    // Every frame carries its sequence number: a valid frame lost would be a gap.
    expect(after.frames.droppedFrames - before.frames.droppedFrames).toBe(0);
    expect(after.frames.sequenceGaps - before.frames.sequenceGaps).toBe(0);
    // The 205,000 garbage bytes were thrown away, between frames or as frames refused.
    const rejected = Object.values(after.frames.rejected).reduce((sum, n) => sum + n, 0);
    expect(rejected).toBeGreaterThan(100);
    expect(after.frames.bytesDiscarded - before.frames.bytesDiscarded).toBeGreaterThan(150_000);
    expect(live.controller.health.report().devices[0]?.status).toBe('online');
    expect(await incidentsOf(live, play, 0)).toEqual([]);
  });

  it('loses no incident while the broker restarts (Mosquitto, the floor keeping its session)', {
    timeout: 90_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const mosquitto = await startMosquitto({ push: (step) => undo.push(step) }, { persistence: true });
    const scenario = await load(PREMATURE_FLOP);
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: tableOf(scenario), mqtt: { url: mosquitto.url }, persistentFloor: true },
    );
    await sleep(500); // the floor's subscription is on the broker
    const play = await dealOn(live, scenario, undo);
    const stopped = mosquitto.stop();
    // The incident is ruled while the broker is away.
    let ruled = false;
    const watching = live.controller.updates.subscribe(({ outputs }) => {
      if (outputs.length > 0) ruled = true;
    });
    undo.push(async () => watching.unsubscribe());
    await stopped;
    await until(
      20_000,
      () => 'the incident',
      () => ruled,
    );
    await mosquitto.restart();
    await play.done;

    const expected = replayEvents(configOf(scenario), scenario.events).map(publicOutput);
    expect(expected).toHaveLength(1);
    expect(await incidentsOf(live, play, expected.length)).toEqual(expected);
  });
});

/** Plays the premature flop on the live table, once its reader is online; resolves when the hole cards are in. */
async function dealOn(live: LiveTable, scenario: Scenario, undo: Undo): Promise<TablePlay> {
  await readerOnline(live);
  const play = playOn(live, scenario.events);
  undo.push(async () => play.stop());
  await until(
    10_000,
    () => 'the deal',
    () => !play.unread().includes(LAST_HOLE_CARD),
  );
  return play;
}

async function load(file: string): Promise<Scenario> {
  return parseScenarioText(await readFile(file, 'utf8'), file);
}

/** The scenario with every event from `index` on `ms` later. */
function withPause(scenario: Scenario, index: number, ms: number): Scenario {
  const events = scenario.events.map(
    (event, i): DomainEvent => (i >= index ? { ...event, t: event.t + ms } : event),
  );
  return { ...scenario, events };
}

const tableOf = (scenario: Scenario) => ({ profile: scenario.profile.id, seats: scenario.table.seats });
const configOf = (scenario: Scenario) => ({
  seats: scenario.table.seats,
  profile: scenario.profile,
  orderWindowMs: scenario.table.orderWindowMs,
});

const readerStatus = (live: LiveTable) =>
  live.controller.health.report().devices.find((device) => device.kind === 'rfid-reader')?.status;

const readerOnline = (live: LiveTable) =>
  until(
    10_000,
    () => 'the reader online',
    () => readerStatus(live) === 'online',
  );

interface ReaderCounters {
  frames: {
    droppedFrames: number;
    sequenceGaps: number;
    bytesDiscarded: number;
    rejected: Record<string, number>;
  };
}

function readerCounters(live: LiveTable): ReaderCounters {
  const reader = live.controller.health.report().devices.find((device) => device.kind === 'rfid-reader');
  return structuredClone(reader?.counters as ReaderCounters);
}

/** The incidents the floor received, `at` traced back to the file's events, once `count` are in and a false one had time to come. */
async function incidentsOf(live: LiveTable, play: TablePlay, count: number): Promise<unknown[]> {
  // The incident topic also carries prompts and awards: only incidents count here.
  const incidents = () =>
    live.messages.filter(
      (message) =>
        message.topic.endsWith('/incident') && JSON.parse(message.payload.toString()).kind === 'incident',
    );
  await until(
    15_000,
    () => `${count} incidents on MQTT`,
    () => incidents().length >= count,
  );
  await sleep(1000);
  return incidents().map((message) => {
    const output = JSON.parse(message.payload.toString()) as { at: number };
    return { ...output, at: play.originOf(output.at) };
  });
}
