import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { createActor } from 'xstate';
import { writeNightJournal } from '../../bench/lib/night-journal.js';
import { recoverTable } from '../../src/controller/recovery.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { openJournal } from '../../src/journal/store.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { tableMachine } from '../../src/table/machine.js';

/*
 * A night's journal: 10,000 hands (a misdeal and its redeal, clean hands, a premature turn, round and
 * round), written as live play writes it (events ahead of the machine, a snapshot at each hand start).
 * Recovery from it, and a replay of it from the first event, both rebuild the table play ended with.
 */

const HANDS = 10_000;
const FILES = [
  'main-event-2014/exposed-card-dealer-card-2.yaml',
  'clean/me-several-hands.yaml',
  'main-event-2014/premature-turn.yaml',
];

/** The round played again and again, re-timed, until HANDS hands have started. */
function* night(events: readonly Omit<DomainEvent, 'seq'>[], span: number) {
  let hands = 0;
  for (let pass = 0; ; pass++) {
    for (const event of events) {
      if (event.type === 'hand.start' && ++hands > HANDS) return;
      yield { ...event, t: event.t + pass * span };
    }
  }
}

async function round() {
  const scenarios = await Promise.all(
    FILES.map(async (file) => {
      const path = new URL(`../scenarios/${file}`, import.meta.url);
      return parseScenarioText(await readFile(path, 'utf8'), path.pathname);
    }),
  );
  let offset = 0;
  const events: Omit<DomainEvent, 'seq'>[] = [];
  for (const { events: own } of scenarios) {
    for (const { seq: _, ...event } of own) events.push({ ...event, t: event.t + offset });
    offset += (own.at(-1)?.t ?? 0) + 5_000;
  }
  return { events, span: offset, profile: scenarios[0]?.profile };
}

describe('a 10,000-hand journal', () => {
  it('recovers and replays to the table live play ended with', { timeout: 300_000 }, async ({ expect }) => {
    const { events, span, profile } = await round();
    if (!profile) throw new Error('no scenario');
    const config = { seats: 9, profile, orderWindowMs: 300 };
    const dir = await mkdtemp(join(tmpdir(), 'croupier-10k-'));
    try {
      const journal = openJournal(join(dir, 'journal.db'));
      const ended = writeNightJournal(journal, night(events, span), config);
      expect(journal.hands(1)[0]?.number).toBe(HANDS);

      const recovered = recoverTable(journal, config);
      expect(recovered.from).toBe('snapshot');
      expect(recovered.actor.getSnapshot().context).toEqual(ended.context);

      const replayed = createActor(tableMachine, { input: config }).start();
      for (const event of journal.eventsBetween(0, journal.lastSeq())) replayed.send(event);
      expect(replayed.getSnapshot().context).toEqual(ended.context);
      expect(replayed.getSnapshot().value).toEqual(ended.value);
      expect(journal.verify()).toMatchObject({ ok: true });
      journal.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
