import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import WebSocket from 'ws';
import { SIMULATED_BADGE_READER_USB, simulatedHidDevices } from '../../simulators/hid-keypad/keyboard.js';
import { parseConfig } from '../../src/config/config.js';
import { startController } from '../../src/controller/controller.js';
import { startFloor } from '../../src/floor/service.js';
import { connectMqtt } from '../../src/io/mqtt.js';
import { openJournal } from '../../src/journal/store.js';
import type { PublicState } from '../../src/outputs/public.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf, until } from './live-table.js';

/*
 * Dealer downs (issue 20): a dealer signs in at the table for their down, with their PIN on the display
 * or their badge at the badge reader; the public state and the journal carry their name, and so does
 * the table after a restart. A supervisor's badge at the same reader still opens the floor panel.
 */

const PAUL = { pin: '1357', badge: '04D1A1E0' };
const NADIA_BADGE = '04D1A2E0';
const MARIE_BADGE = '04F100F1';

describe('a dealer down', () => {
  it('starts with the dealer’s PIN on the display or badge at the reader, in the public state and the journal, across a restart', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-dealer-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const config = parseConfig({
      table: { id: 'T3' },
      http: { port: 0 },
      mqtt: { embedded: { port: 0 } },
      devices: { keypad: [{ id: 'badge-1', mode: 'badge', usb: SIMULATED_BADGE_READER_USB }] },
      journal: { path: join(dir, 'journal.db') },
      dealers: [
        { name: 'Paul', pin: await hashSecret(PAUL.pin), badge: await hashSecret(PAUL.badge) },
        { name: 'Nadia', badge: await hashSecret(NADIA_BADGE) },
      ],
      supervisors: [{ name: 'Marie', badge: await hashSecret(MARIE_BADGE) }],
    });
    const start = async () => {
      const { bus, badgeReader } = simulatedHidDevices();
      const controller = await startController(config, 'test', pino({ level: 'silent' }), {
        hidBinding: bus,
      });
      undo.push(() => controller.close());
      const floor = connectMqtt({
        url: controller.mqttUrl,
        clientId: `floor-${Math.random()}`,
        reconnectMs: 100,
      });
      undo.push(() => floor.close());
      let state: PublicState | undefined;
      floor.messages('croupier/v1/T3/state').subscribe((message) => {
        state = JSON.parse(message.payload.toString()) as PublicState;
      });
      await until(
        10_000,
        () => 'the badge reader online',
        () => controller.health.report().devices.every((device) => device.status === 'online'),
      );
      return { controller, badgeReader, dealer: () => state?.dealer?.name };
    };

    const table = await start();
    const signIn = (pin: string) =>
      fetch(`${table.controller.httpUrl}/api/dealer/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pin }),
      });
    expect((await signIn('0000')).status).toBe(401);
    const signed = await signIn(PAUL.pin);
    expect(await signed.json()).toEqual({ dealer: 'Paul' });
    await until(
      5000,
      () => 'Paul in the public state',
      () => table.dealer() === 'Paul',
    );

    // The next down: Nadia badges in at the reader.
    table.badgeReader.typeBadge(NADIA_BADGE);
    await until(
      10_000,
      () => 'Nadia in the public state',
      () => table.dealer() === 'Nadia',
    );

    // A supervisor's badge is no dealer's: it opens the floor panel on the display, and the down stays.
    const screen = new WebSocket(`${table.controller.httpUrl.replace(/^http/, 'ws')}/ws`);
    const heard: { type: string; session?: { supervisor: string } }[] = [];
    screen.on('message', (data) => heard.push(JSON.parse(String(data))));
    undo.push(async () => screen.close());
    await new Promise((resolve) => screen.once('open', resolve));
    table.badgeReader.typeBadge(MARIE_BADGE);
    await until(
      10_000,
      () => 'the floor panel opened by Marie’s badge',
      () => heard.some((message) => message.type === 'floor' && message.session?.supervisor === 'Marie'),
    );
    expect(table.dealer()).toBe('Nadia');
    const crew = heard.filter((message) => message.type === 'state').at(-1) as {
      crew?: { dealer?: { name: string } };
    };
    expect(crew.crew?.dealer?.name).toBe('Nadia');

    // A floor service on the table's own broker (aedes speaks no MQTT 5: it is spoken to in 3.1.1) sees
    // the down on the table's tile.
    const floor = await startFloor(
      parseConfig({
        mqtt: { url: table.controller.mqttUrl },
        floor: { port: 0, stats: join(dir, 'floor.db') },
      }),
      'test',
      pino({ level: 'silent' }),
    );
    undo.push(() => floor.close());
    await until(
      5000,
      () => 'the table on the floor',
      () => floor.room.tiles()[0]?.dealer === 'Nadia',
    );

    // Restarted, the table has the same dealer: the journal says so.
    await table.controller.close();
    const again = await start();
    await until(
      5000,
      () => 'Nadia after the restart',
      () => again.dealer() === 'Nadia',
    );
    await again.controller.close();
    const journal = openJournal(config.journal.path, { readonly: true });
    expect(journal.lastMarker(['dealer'])?.detail).toMatchObject({ name: 'Nadia', afterHand: 0 });
    journal.close();
  });
});
