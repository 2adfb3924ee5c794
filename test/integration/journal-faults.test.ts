import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import WebSocket from 'ws';
import type { DisplayMessage } from '../../src/display/protocol.js';
import { openJournal } from '../../src/journal/store.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { cleanupsOf, type LiveTable, playOn, startLiveTable, until } from './live-table.js';
import { requireSocat } from './pty.js';

/*
 * A journal that cannot record stops the table: a disk that fills mid-hand, a journal unreadable at
 * start. Either way croupier says so on /healthz and the display, judges nothing it could not record,
 * and keeps what it had written.
 */

const SCENARIO = fileURLToPath(new URL('../scenarios/main-event-2014/premature-turn.yaml', import.meta.url));

requireSocat('the journal fault tests');

/** Every message a display screen receives. */
async function screen(live: LiveTable, undo: (() => Promise<unknown>)[]): Promise<DisplayMessage[]> {
  const messages: DisplayMessage[] = [];
  const socket = new WebSocket(`${live.controller.httpUrl.replace(/^http/, 'ws')}/ws`);
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as DisplayMessage));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  undo.push(async () => socket.close());
  return messages;
}

describe('a journal that cannot record', () => {
  it('on a disk that fills mid-hand: play stops, the display and /healthz say why, nothing written is lost', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    // Room for a few dozen events and the hand's snapshot, then the disk is full.
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: { seats: 9 }, openJournal: (path) => openJournal(path, { maxBytes: 32 * 1024 }) },
    );
    const messages = await screen(live, undo);
    let judged = -1;
    live.controller.updates.subscribe(({ event }) => {
      judged = event.seq;
    });
    const play = playOn(live, scenario.events);
    undo.push(async () => play.stop());
    play.done.catch(() => undefined); // the table stops judging: the play cannot finish
    await until(
      60_000,
      () => 'the journal to fill',
      () => live.controller.health.report().status === 'halted',
    );

    const health = live.controller.health.report();
    // A disk that frees up is tried again when a supervisor clears the halt.
    expect(health).toMatchObject({ status: 'halted', journal: { state: 'halted', clearable: true } });
    expect(health.journal.detail).toMatch(/disk is full/);
    await expect.poll(() => messages.find((m) => m.type === 'halt')).toMatchObject({ type: 'halt' });
    expect(live.logs.some((line) => line.includes('the journal cannot record: play stops'))).toBe(true);

    // Everything judged was recorded, in order, under an intact chain (read beside the halted writer).
    const journal = openJournal(live.journal, { readonly: true });
    undo.push(async () => journal.close());
    expect(journal.verify()).toMatchObject({ ok: true });
    expect(journal.lastSeq()).toBe(judged);
    expect(journal.eventsBetween(0, judged).map((event) => event.seq)).toEqual(
      Array.from({ length: judged + 1 }, (_, i) => i),
    );
    expect(judged).toBeGreaterThan(5);
  });

  it('unreadable at start: it is reported, never replaced, and the table does not play', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const garbage = Buffer.from('this was a journal until the SD card failed '.repeat(200));
    let path = '';
    // The SD card's journal went bad while croupier was off.
    const again = await startLiveTable(
      { push: (step) => undo.push(step) },
      {
        openJournal: (at) => {
          path = at;
          writeFileSync(at, garbage);
          return openJournal(at);
        },
      },
    );
    const messages = await screen(again, undo);
    const health = again.controller.health.report();
    expect(health.status).toBe('halted');
    expect(health.journal.detail).toContain(path);
    await expect
      .poll(() => messages.find((m) => m.type === 'halt'))
      .toMatchObject({ type: 'halt', clearable: false });
    expect(await readFile(path)).toEqual(garbage);
  });
});
