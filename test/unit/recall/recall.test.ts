import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concat, from, lastValueFrom, NEVER, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { type SourceEvent, tablePipeline } from '../../../src/controller/pipeline.js';
import { recoverTable } from '../../../src/controller/recovery.js';
import type { DomainEvent } from '../../../src/domain/events.js';
import { openJournal } from '../../../src/journal/store.js';
import { recallHand } from '../../../src/recall/recall.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { replayEvents } from '../../../src/table/table.js';

const FILE = new URL('../../scenarios/main-event-2014/exposed-card-dealer-card-2.yaml', import.meta.url);
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function scenario() {
  const parsed = parseScenarioText(await readFile(FILE, 'utf8'), FILE.pathname);
  const config = { seats: parsed.table.seats, profile: parsed.profile };
  const folder = await mkdtemp(join(tmpdir(), 'croupier-recall-'));
  folders.push(folder);
  const sources = (events: readonly DomainEvent[]) =>
    events.map(({ seq: _, ...event }) => event as SourceEvent);
  return { ...parsed, config, path: join(folder, 'journal.db'), sources };
}

describe('the journal behind the table', () => {
  it('recalls each hand with the rulings the table gave, as a replay of the whole file gives them', async () => {
    const { events, config, path, sources } = await scenario();
    const journal = openJournal(path);
    await lastValueFrom(tablePipeline({ config, sources: [from(sources(events))], journal }).pipe(toArray()));
    const first = recallHand(journal, 1, config);
    const second = recallHand(journal, 2, config);
    expect(first).toMatchObject({ number: 1, firstSeq: 0, lastSeq: 4 });
    expect(second?.firstSeq).toBe(5);
    const ruled = [...(first?.lines ?? []), ...(second?.lines ?? [])].filter((line) => line.kind !== 'event');
    expect(ruled).toEqual(replayEvents(config, events));
    expect(ruled).toMatchObject([{ incident: 'EXPOSED_CARD', ruling: 'MISDEAL', at: 3 }]);
    expect(recallHand(journal, 3, config)).toBeNull();
    journal.close();
  });

  it('journals the hands the table starts itself (next-hand) as it does those of hand.start', async () => {
    const file = new URL('../../scenarios/seats/me-six-player-night.yaml', import.meta.url);
    const night = parseScenarioText(await readFile(file, 'utf8'), file.pathname);
    const folder = await mkdtemp(join(tmpdir(), 'croupier-recall-'));
    folders.push(folder);
    const journal = openJournal(join(folder, 'journal.db'));
    const sources = night.events.map(({ seq: _, ...event }) => event as SourceEvent);
    await lastValueFrom(
      tablePipeline({ config: night.config, sources: [from(sources)], journal }).pipe(toArray()),
    );
    const starts = night.events
      .filter((e) => e.type === 'dealer' && e.input === 'next-hand')
      .map((e) => e.seq);
    expect(
      journal
        .hands(10)
        .map((hand) => hand.firstSeq)
        .sort((a, b) => a - b),
    ).toEqual(starts);
    const second = recallHand(journal, 2, night.config);
    expect(
      second?.lines.filter((line) => line.kind === 'prompt' && line.prompt === 'NEXT_HAND'),
    ).toMatchObject([{ prompt: 'NEXT_HAND', button: 2, sb: null, bb: 6 }]);
    journal.close();
  });

  it('recovers, after a stop at any event, the table an uninterrupted run reaches', async () => {
    const { events, config, path, sources } = await scenario();
    const whole = openJournal(join(path, '..', 'whole.db'));
    const run = (
      journal: typeof whole,
      part: readonly DomainEvent[],
      { actor, cut = false }: { actor?: ReturnType<typeof recoverTable>['actor']; cut?: boolean } = {},
    ) => {
      // A power cut ends nothing: the sources never complete, the pipeline just stops.
      const source = cut ? concat(from(sources(part)), NEVER) : from(sources(part));
      const updates = tablePipeline({ config, sources: [source], journal, ...(actor && { actor }) });
      return lastValueFrom((cut ? updates.pipe(take(part.length)) : updates).pipe(toArray()));
    };
    const uninterrupted = await run(whole, events);
    for (const cut of [1, 3, 4, 5, 9, events.length - 1]) {
      const journal = openJournal(join(path, '..', `cut-${cut}.db`));
      const before = await run(journal, events.slice(0, cut), { cut: true });
      journal.close();
      // The power went after the event at `cut - 1`: the table comes back from the journal alone.
      const reopened = openJournal(join(path, '..', `cut-${cut}.db`));
      const recovered = recoverTable(reopened, config);
      expect(recovered.seq).toBe(before.at(-1)?.event.seq);
      const after = await run(reopened, events.slice(cut), { actor: recovered.actor });
      const last = after.at(-1)?.snapshot;
      const expected = uninterrupted.at(-1)?.snapshot;
      expect(last?.value).toEqual(expected?.value);
      expect(last?.context).toEqual(expected?.context);
      reopened.close();
    }
    whole.close();
  });
});
