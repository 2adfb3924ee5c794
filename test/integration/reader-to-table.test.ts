import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { asyncScheduler, map, Subject, takeUntil, tap } from 'rxjs';
import { beforeAll, describe, it } from 'vitest';
import { rfidReader } from '../../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../../devices/rfid-reader/manifest.js';
import { rfidLinkFromSerial } from '../../devices/rfid-reader/serial-link.js';
import { rfidToDomain } from '../../devices/rfid-reader/to-domain.js';
import { playScenario } from '../../simulators/rfid-reader/from-scenario.js';
import { SimulatedReader } from '../../simulators/rfid-reader/reader.js';
import { type SourceEvent, tablePipeline } from '../../src/controller/pipeline.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { openSerialLink } from '../../src/io/serial.js';
import type { TableOutput } from '../../src/rules/types.js';
import { parseScenarioText, type Scenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import {
  openDevicePort,
  requireSocat,
  startPtyPair,
  TEN_SEAT_ANTENNAS,
  TEN_SEAT_ZONES,
  within,
} from './pty.js';

/*
 * The first end-to-end path: a simulated reader board on one end of a socat PTY pair plays a scenario's
 * cards; croupier's serial link, RFID driver, normaliser and table pipeline listen on the other, while the
 * scenario's other events (hand start, actions, dealer inputs…) are keyed in at their time. The incidents
 * that come out must be those `croupier replay` gives for the same file.
 */

const scenarioFile = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SCENARIOS = [
  scenarioFile('../../../shared/scenarios/me-premature-flop.yaml'),
  scenarioFile('../../../shared/scenarios/tda-exposed-first-card.json'),
  scenarioFile('../../../shared/scenarios/clean-nine-handed.json'),
  scenarioFile('../scenarios/main-event-2014/flop-no-burn-identifiable.yaml'),
];

const BAUD = 115_200;
const READER_ID = 'rfid-1';
/** Real time: the table's reordering window (300 ms) is judged on the host clock. */
const SPEED = 1;
/**
 * Reads land on the next slot of their antenna, one cycle apart at worst, and a missed read waits a
 * cycle more. With 100 ms cycles two cards pitched 500 ms apart on one antenna stay over 300 ms apart
 * even when the first is missed once, so "identifiable" comes out as in the file; at the driver's
 * default 250 ms a single missed read would bring them within the window.
 */
const INVENTORY_PERIOD_MS = 100;

beforeAll(() => {
  requireSocat('the simulator integration tests');
});

/** What the reader board plays; every other event is keyed in. */
const fromReader = (event: Pick<DomainEvent, 'type'>) => event.type === 'card.seen';

/** An event that reached the table, and the scenario event it stands for (none for the reader's own). */
interface Arrival {
  event: SourceEvent;
  origin: number | undefined;
}

describe.concurrent('a simulated reader over a socat PTY, through the driver, to the table pipeline', () => {
  it.for(SCENARIOS)(
    'gives the incidents croupier replay gives for %s',
    { timeout: 60_000 },
    async (file, { expect, onTestFinished }) => {
      const cleanups: (() => unknown)[] = [];
      onTestFinished(async () => {
        for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
      });
      const scenario = parseScenarioText(await readFile(file, 'utf8'), file);
      for (const event of scenario.events) {
        // The reader plays cards only: a lifted card or a button puck would need this test to model them.
        if (event.type === 'card.gone' || event.type === 'button')
          throw new Error(`${file}: no ${event.type}`);
      }
      const config = {
        seats: scenario.table.seats,
        profile: scenario.profile,
        orderWindowMs: scenario.table.orderWindowMs,
      };
      const replayed = replayEvents(config, scenario.events);

      const dir = await mkdtemp(join(tmpdir(), 'croupier-reader-to-table-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const socat = await startPtyPair(dir, cleanups);
      const serial = openSerialLink({ device: { path: socat.host }, baudRate: BAUD });
      cleanups.push(() => serial.close());
      const driverConfig = parseRfidReaderConfig({
        id: READER_ID,
        link: { path: socat.host, baudRate: BAUD },
        antennas: Object.fromEntries(TEN_SEAT_ANTENNAS.map(({ index, label }) => [String(index), label])),
        inventoryPeriodMs: INVENTORY_PERIOD_MS,
      });

      // `arrivals[seq]` is the event the pipeline numbered `seq`: both sources are tapped as they enter it.
      const arrivals: Arrival[] = [];
      const origins = readOrigins(scenario);
      const end = new Subject<void>();
      const reads = rfidReader(rfidLinkFromSerial(serial), driverConfig).events.pipe(
        rfidToDomain(READER_ID, scenario.registry),
        takeUntil(end),
        tap((event) => arrivals.push({ event, origin: origins(event) })),
      );
      const keyed = new Subject<Arrival>();
      const inputs = keyed.pipe(
        tap((arrival) => arrivals.push(arrival)),
        map(({ event }) => event),
      );
      const outputs: TableOutput[] = [];
      const completed = new Promise<void>((resolve, reject) => {
        const subscription = tablePipeline({
          config,
          sources: [reads, inputs],
          clock: asyncScheduler,
        }).subscribe({
          next: (output) => outputs.push(output),
          error: reject,
          complete: resolve,
        });
        cleanups.push(() => subscription.unsubscribe());
      });

      const port = await openDevicePort(socat.device, cleanups);
      const reader = new SimulatedReader({
        antennas: TEN_SEAT_ANTENNAS,
        inventoryPeriodMs: INVENTORY_PERIOD_MS,
        seed: 2014,
        missProbability: 0.01,
        stackedMissProbability: 0.05,
      });
      cleanups.push(() => reader.stop());
      reader.start(port);
      const online = () =>
        arrivals.findIndex(({ event }) => event.type === 'device' && event.status === 'online');
      await until(
        10_000,
        () => 'the reader to come online',
        () => online() >= 0,
      );

      const started = performance.now();
      const playback = playScenario(reader, scenario.events, { antennas: TEN_SEAT_ZONES, speed: SPEED });
      cleanups.push(() => playback.stop());
      const abort = new AbortController();
      cleanups.push(() => abort.abort());
      const delivered = (index: number) => arrivals.some(({ origin }) => origin === index);
      const keying = keyIn(scenario, { started, keyed, delivered, signal: abort.signal });
      keying.catch(() => undefined);
      const last = scenario.events.at(-1)?.t ?? 0;
      await within(last / SPEED + 10_000, 'the scenario to play', Promise.all([playback.done, keying]));
      const unread = () =>
        scenario.events.flatMap((event, i) => (fromReader(event) && !delivered(i) ? [i] : []));
      await until(
        5000,
        () => `the reads of events ${unread().join(', ')}`,
        () => unread().length === 0,
      );
      // The clock judges the last reads held in the window: no need to end the stream for them.
      await until(
        5000,
        () => `${replayed.length} outputs`,
        () => outputs.length >= replayed.length,
        false,
      );
      const judgedLive = outputs.length;
      end.next();
      keyed.complete();
      await within(5000, 'the pipeline to complete', completed);

      // The live run kept the file's order between the reads and the events keyed in: else the test, not
      // the table, is at fault. Reads among themselves may swap within a cycle: the window absorbs that.
      const order = arrivals.flatMap(({ origin }) => (origin === undefined ? [] : [origin]));
      const misordered = order.flatMap((origin, i) =>
        order
          .slice(i + 1)
          .filter(
            (later) =>
              later < origin && !(fromReader(at(scenario, later)) && fromReader(at(scenario, origin))),
          )
          .map((later) => `event ${later} arrived after event ${origin}`),
      );
      expect(misordered).toEqual([]);
      // Every read stands for a card of the file, and the reader stayed online through the hand.
      const strays = arrivals
        .slice(online() + 1)
        .filter(({ event, origin }) => event.type !== 'card.gone' && origin === undefined);
      expect(strays.map(({ event }) => event)).toEqual([]);

      const live = outputs.map((output) => describeOutput(scenario, output, arrivals[output.at]?.origin));
      expect(live).toEqual(replayed.map((output) => describeOutput(scenario, output, output.at)));
      expect(judgedLive).toBe(outputs.length);
    },
  );
});

function at(scenario: Scenario, index: number): DomainEvent {
  const event = scenario.events[index];
  if (!event) throw new RangeError(`no event ${index}`);
  return event;
}

/** Names the scenario event a live read stands for: the next card of the file seen in that zone. */
function readOrigins(scenario: Scenario): (event: SourceEvent) => number | undefined {
  const pending = new Map<string, number[]>();
  scenario.events.forEach((event, index) => {
    if (event.type !== 'card.seen') return;
    const key = `${event.zone} ${event.uid}`;
    pending.set(key, [...(pending.get(key) ?? []), index]);
  });
  return (event) =>
    event.type === 'card.seen' ? pending.get(`${event.zone} ${event.uid}`)?.shift() : undefined;
}

/**
 * Keys in the scenario's events that the reader does not play, each at its time on the host clock, in file
 * order, and never before the reader has delivered every card the file has before it (a dealer reports an
 * exposed card after it was read).
 */
async function keyIn(
  scenario: Scenario,
  options: {
    started: number;
    keyed: Subject<Arrival>;
    delivered(index: number): boolean;
    signal: AbortSignal;
  },
): Promise<void> {
  const { started, keyed, delivered, signal } = options;
  for (const [index, { seq: _, ...event }] of scenario.events.entries()) {
    // A file holds no settle: only the table's clock sends them.
    if (event.type === 'settle' || fromReader(event)) continue;
    await sleep(Math.max(0, started + event.t / SPEED - performance.now()), undefined, { signal });
    const readsBefore = scenario.events.slice(0, index).flatMap((e, i) => (fromReader(e) ? [i] : []));
    await until(
      5000,
      () => `the reads before event ${index}`,
      () => readsBefore.every(delivered),
      true,
      signal,
    );
    keyed.next({ event: { ...event, t: asyncScheduler.now() }, origin: index });
  }
}

/** An output as the comparison sees it: `at` as the scenario event it names, cards in the file's notation. */
function describeOutput(scenario: Scenario, output: TableOutput, origin: number | undefined): object {
  const { kind, seats, rule } = output;
  return output.kind === 'incident'
    ? {
        kind,
        at: origin,
        incident: output.incident,
        ruling: output.ruling,
        seats,
        cards: output.cards.map(scenario.codeOf),
        rule,
        floor: output.floor,
      }
    : { kind, at: origin, prompt: output.prompt, seats, rule };
}

/** Polls rather than sleeps, so a loaded machine only makes the test slower; throws on timeout if `strict`. */
async function until(
  ms: number,
  what: () => string,
  condition: () => boolean,
  strict = true,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) {
      if (strict) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
      return;
    }
    await sleep(10, undefined, { signal });
  }
}
