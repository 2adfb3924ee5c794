import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { filter, firstValueFrom } from 'rxjs';
import { describe, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { type Controller, startController } from '../../src/controller/controller.js';
import type { Face, SourceEvent } from '../../src/domain/events.js';
import { connectMqtt } from '../../src/io/mqtt.js';
import { type JournaledEvent, openJournal } from '../../src/journal/store.js';
import { cleanupsOf, until } from './live-table.js';
import { startMosquitto } from './mosquitto.js';

/*
 * `private/events` comes from the journal (DESIGN.md "MQTT", "Durability"): croupier is stopped in the
 * middle of the broadcast delay and started again on the same journal, and the events journaled before
 * the stop reach surveillance, on a casino's broker (Mosquitto), once they are due, each exactly once.
 */

const TABLE = 't1';
const DELAY = 2500;

const holeCard = (seat: number, uid: string, face: Face): SourceEvent => ({
  type: 'card.seen',
  t: Date.now(),
  zone: `seat:${seat}`,
  uid,
  face,
  deck: 'A',
});

describe('private/events across a restart', () => {
  it('publishes after the restart, once due, each event journaled before it, and none twice', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const broker = await startMosquitto({ push: (step) => undo.push(step) });
    const dir = await mkdtemp(join(tmpdir(), 'croupier-feed-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const config = parseConfig({
      table: { id: TABLE, seats: 9 },
      http: { port: 0 },
      mqtt: { url: broker.url, privateDelayMs: DELAY },
      journal: { path: join(dir, 'journal.db') },
    });

    // Surveillance listens the whole time, croupier's restart included.
    const eye = connectMqtt({ url: broker.url, clientId: `surveillance-${process.pid}`, reconnectMs: 200 });
    undo.push(() => eye.close());
    const arrivals: { event: JournaledEvent; at: number }[] = [];
    eye
      .messages(`croupier/v1/${TABLE}/private/events`)
      .subscribe((message) =>
        arrivals.push({ event: JSON.parse(message.payload.toString()), at: Date.now() }),
      );
    await firstValueFrom(eye.status$.pipe(filter((status) => status.state === 'connected')));

    const infoLogs: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        infoLogs.push(chunk.toString());
        done();
      },
    });
    const start = () => startController(config, 'test', pino({ level: 'info' }, sink));
    let controller: Controller = await start();
    undo.push(() => controller.close());
    const seqs = () => arrivals.map(({ event }) => event.seq);

    controller.input({
      type: 'hand.start',
      t: Date.now(),
      button: 9,
      players: [1, 2, 3],
      blinds: [50, 100],
      deck: 'A',
    });
    controller.input(holeCard(1, '04A1B2C301', 'As'));
    await until(
      3 * DELAY,
      () => `the first events on private/events (got ${seqs().join(', ')})`,
      () => arrivals.some(({ event }) => event.type === 'card.seen'),
    );

    // Two hole cards journaled, and croupier stopped well inside their delay.
    controller.input(holeCard(2, '04A1B2C302', 'Kd'));
    controller.input(holeCard(3, '04A1B2C303', 'Qh'));
    await sleep(DELAY / 5);
    const beforeStop = arrivals.length;
    await controller.close();
    await sleep(DELAY / 5);
    expect(arrivals).toHaveLength(beforeStop);

    controller = await start();
    controller.input(holeCard(1, '04A1B2C304', '7c'));
    await until(
      4 * DELAY,
      () => `every card on private/events (got ${seqs().join(', ')})`,
      () => arrivals.filter(({ event }) => event.type === 'card.seen').length === 4,
    );
    // Time for a repeat to show up.
    await sleep(DELAY / 2);
    await controller.close();

    const journal = openJournal(config.journal.path, { readonly: true });
    undo.push(async () => journal.close());
    const journaled = new Map(
      [...journal.records()]
        .filter((record) => record.kind === 'event' && JSON.parse(record.body).type !== 'settle')
        .map((record) => [record.seq, record]),
    );
    // Every domain event, in order, once; none of the power markers.
    expect(seqs()).toEqual([...journaled.keys()]);
    for (const { event, at } of arrivals) {
      const record = journaled.get(event.seq);
      expect(event).toEqual(JSON.parse(record?.body ?? ''));
      expect(at, `event ${event.seq} came before its delay`).toBeGreaterThanOrEqual(
        (record?.at ?? 0) + DELAY,
      );
    }
    // The cards held over the stop went out after the restart.
    const heldOver = arrivals.slice(beforeStop).filter(({ event }) => event.type === 'card.seen');
    expect(heldOver.map(({ event }) => (event as { uid: string }).uid)).toEqual([
      '04A1B2C302',
      '04A1B2C303',
      '04A1B2C304',
    ]);
    // Hole cards only on private/events: not in croupier's log at info.
    expect(infoLogs.join('')).not.toMatch(/04A1B2C30\d/);
  });
});
