import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { map, type Observable } from 'rxjs';
import type { DomainEvent } from '../../src/domain/events.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { TEN_SEAT_ZONES } from '../rfid-reader/layout.js';
import { type KeyedEvent, playTable } from './play.js';
import type { VirtualTable } from './table.js';

export interface DemoOptions {
  table: VirtualTable;
  /** The controller's console and what it judged. */
  key(event: KeyedEvent): void;
  updates: Observable<{ event: DomainEvent }>;
  scenarios: readonly string[];
  /** Told of each hand played, or failed. */
  played(file: string, error?: Error): void;
  signal: AbortSignal;
  /** Where in the list to begin (taken modulo its length): a restarted demo goes on round the list. */
  first?: number;
}

/** The demo's hands (paths from the package root): clean play and the incidents a dealer meets most. */
export const DEMO_SCENARIOS = [
  'test/scenarios/main-event-2014/exposed-card-dealer-card-2.yaml',
  'test/scenarios/clean/me-several-hands.yaml',
  'test/scenarios/clean/me-heads-up.yaml',
  'test/scenarios/main-event-2014/flop-no-burn-identifiable.yaml',
  'test/scenarios/main-event-2014/premature-turn.yaml',
  'test/scenarios/main-event-2014/foreign-card-deal.yaml',
] as const;

/** Between two hands, the cards leave the antennas and the reader sees them gone. */
const BETWEEN_HANDS_MS = 2500;

/** Plays the scenario files one after another on the virtual table, round and round, until aborted. */
export async function runDemo({
  table,
  key,
  updates,
  scenarios,
  played,
  signal,
  first = 0,
}: DemoOptions): Promise<void> {
  const arrivals = updates.pipe(map(({ event }) => event));
  const start = first % scenarios.length;
  const round = [...scenarios.slice(start), ...scenarios.slice(0, start)];
  while (!signal.aborted) {
    for (const file of round) {
      if (signal.aborted) return;
      const { events } = parseScenarioText(await readFile(file, 'utf8'), file);
      const play = playTable(events, {
        reader: table.reader,
        antennas: TEN_SEAT_ZONES,
        key,
        arrivals,
        signal,
      });
      try {
        await play.done;
        played(file);
      } catch (error) {
        if (signal.aborted) return;
        played(file, error as Error);
      } finally {
        play.stop();
        for (const event of events) if (event.type === 'card.seen') table.reader.remove(event.uid);
      }
      await sleep(BETWEEN_HANDS_MS, undefined, { signal }).catch(() => undefined);
    }
  }
}
