import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, toArray } from 'rxjs';
import { type SourceEvent, tablePipeline } from '../src/controller/pipeline.js';
import { openJournal } from '../src/journal/store.js';
import { parseScenarioText, type Scenario } from '../src/scenario/load.js';

const NIGHT = fileURLToPath(new URL('scenarios/seats/me-six-player-night.yaml', import.meta.url));

/**
 * A night of four hands at one table journaled at `path` as the controller writes it (with its power-off
 * marker after a clean stop); the table's config.
 */
export async function journalNight(path: string, { cleanStop = false } = {}): Promise<Scenario['config']> {
  const scenario = parseScenarioText(await readFile(NIGHT, 'utf8'), NIGHT);
  const journal = openJournal(path);
  const sources = scenario.events.map(({ seq: _, ...event }) => event as SourceEvent);
  await lastValueFrom(
    tablePipeline({ config: scenario.config, sources: [from(sources)], journal }).pipe(toArray()),
  );
  if (cleanStop) journal.marker('power-off');
  journal.close();
  return scenario.config;
}
