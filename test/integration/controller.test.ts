import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText, type Scenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { playOn, startLiveTable, until } from './live-table.js';
import { requireSocat } from './pty.js';
import { holeCards, leakedSecrets } from './secrets.js';

/*
 * croupier as `croupier start` runs it: the virtual table's reader board on a real PTY, the embedded
 * broker, the floor watching every topic. Each scenario's incidents, as the floor receives them on MQTT,
 * must be those `croupier replay` gives for the same file; no topic and no info log names a hole card.
 */

const scenarioFile = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SCENARIOS = [
  scenarioFile('../../../shared/scenarios/me-premature-flop.yaml'),
  scenarioFile('../../../shared/scenarios/clean-nine-handed.json'),
  scenarioFile('../scenarios/main-event-2014/exposed-card-dealer-card-2.yaml'),
  scenarioFile('../scenarios/main-event-2014/foreign-card-deal.yaml'),
  scenarioFile('../scenarios/clean/me-chip-sensors.yaml'),
  scenarioFile('../scenarios/main-event-2014/deck-count-short.yaml'),
];

requireSocat('the controller integration tests');

/** Each file with a reader board that reports its rounds, and with one that does not (revision 1.0). */
const RUNS = SCENARIOS.flatMap((file) => [
  { file, rounds: true },
  { file, rounds: false },
]);

describe.concurrent('the controller on a virtual table, watched over MQTT', () => {
  it.for(RUNS)(
    'publishes the incidents croupier replay gives for $file (round reports: $rounds)',
    { timeout: 90_000 },
    async ({ file, rounds }, { expect, onTestFinished }) => {
      const undo: (() => Promise<unknown>)[] = [];
      onTestFinished(async () => {
        for (const step of undo.reverse()) await step().catch(() => undefined);
      });
      const scenario = await load(file);
      const expected = replayEvents(tableConfig(scenario), scenario.events).map(publicOutput);
      const live = await startLiveTable(
        { push: (step) => undo.push(step) },
        { table: { profile: scenario.profile.id, seats: scenario.table.seats }, rounds },
      );
      await until(
        10_000,
        () => 'the reader to come online',
        () => live.controller.health.report().devices[0]?.status === 'online',
      );

      const judged: DomainEvent[] = [];
      const journaled = live.arrivals.subscribe((event) => judged.push(event));
      undo.push(async () => journaled.unsubscribe());
      const play = playOn(live, scenario.events);
      undo.push(async () => play.stop());
      await play.done;
      await until(
        5000,
        () => `the reads of events ${play.unread().join(', ')}`,
        () => play.unread().length === 0,
      );
      const incidents = () => live.messages.filter((m) => m.topic === 'croupier/v1/test-table/incident');
      await until(
        5000,
        () => `${expected.length} incidents on MQTT`,
        () => incidents().length >= expected.length,
      );
      // Time for a false incident to show up.
      await sleep(1000);

      // The board's rounds reached the table (or, from a board that does not report them, none did).
      const rounded = judged.filter((event) => event.type === 'card.seen' && event.round !== undefined);
      const roundSettles = judged.filter((event) => event.type === 'settle' && event.round !== undefined);
      expect(rounded.length > 0 && roundSettles.length > 0).toBe(rounds);
      if (!rounds) expect(rounded.length + roundSettles.length).toBe(0);
      const received = incidents().map((m) => JSON.parse(m.payload.toString()) as { at: number });
      expect(received.map((output) => ({ ...output, at: play.originOf(output.at) }))).toEqual(expected);
      expect(leakedSecrets(scenario, expected, live.messages, live.logs)).toEqual([]);
      // The scan has secrets to look for, and finds one where it is.
      const [secret] = holeCards(scenario.events, expected);
      expect(secret).toBeDefined();
      const canary = {
        topic: 'canary',
        payload: Buffer.from(JSON.stringify({ card: secret })),
        retain: false,
      };
      expect(leakedSecrets(scenario, expected, [canary], [])).toHaveLength(2);
    },
  );
});

async function load(file: string): Promise<Scenario> {
  return parseScenarioText(await readFile(file, 'utf8'), file);
}

function tableConfig(scenario: Scenario) {
  return {
    seats: scenario.table.seats,
    profile: scenario.profile,
    orderWindowMs: scenario.table.orderWindowMs,
  };
}
