import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectAsync } from 'mqtt';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import WebSocket from 'ws';
import { corpusDocument, loadCorpus } from '../../bench/lib/corpus.js';
import { parseConfig } from '../../src/config/config.js';
import { startController } from '../../src/controller/controller.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { type PublicOutput, publicOutput } from '../../src/outputs/public.js';
import { loadScenario } from '../../src/scenario/load.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf } from './live-table.js';
import { holeCards, leaks } from './secrets.js';

/*
 * A 200-hand session (the scenario corpus: clean hands and every irregularity) through croupier, and
 * everything it says scanned, hand by hand, for the identity of that hand's hole cards and for any
 * configured secret: every log line at info and above, every public MQTT payload, every display
 * message, and the HTTP answers (`/healthz`, `/api/state`).
 */

const HANDS = 200;
const PIN = '739164';
const MQTT_PASSWORD = 'canary-floor-password-5521';

interface Said {
  hand: number;
  where: string;
  text: string;
}

describe('secrets stay secret', () => {
  it(`over a ${HANDS}-hand session: no hole card and no configured secret in anything croupier says`, {
    timeout: 300_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-leaks-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const night = corpusDocument(loadCorpus(), HANDS);
    const { events } = loadScenario(night, 'night');
    let hand = 0;
    const said: Said[] = [];
    const say = (where: string, text: string) => said.push({ hand, where, text });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          if ((JSON.parse(line) as { level: number }).level >= 30) say('log', line);
        }
        done();
      },
    });
    const config = parseConfig({
      table: { id: 'leaks', seats: 10 },
      http: { port: 0 },
      mqtt: {
        embedded: { port: 0 },
        users: [{ username: 'floor', role: 'floor', password: await hashSecret(MQTT_PASSWORD) }],
      },
      supervisors: [{ name: 'Marie', pin: await hashSecret(PIN) }],
      journal: { path: join(dir, 'journal.db') },
    });
    const controller = await startController(config, 'test', pino({ level: 'debug' }, sink));
    undo.push(() => controller.close());
    const floor = await connectAsync(controller.mqttUrl, { username: 'floor', password: MQTT_PASSWORD });
    undo.push(() => floor.endAsync(true));
    floor.on('message', (topic, payload) => say(`MQTT ${topic}`, payload.toString()));
    await floor.subscribeAsync('croupier/v1/leaks/+', { qos: 1 });
    const screen = new WebSocket(`${controller.httpUrl.replace(/^http/, 'ws')}/ws`);
    screen.on('message', (data) => say('display', String(data)));
    await new Promise((resolve) => screen.once('open', resolve));
    undo.push(async () => screen.close());

    const outputs: PublicOutput[][] = [];
    controller.updates.subscribe(({ outputs: ruled }) => {
      outputs[hand] = [...(outputs[hand] ?? []), ...ruled.map(publicOutput)];
    });
    const hands: DomainEvent[][] = [];
    for (const { seq: _, ...event } of events) {
      if (event.type === 'hand.start') hands.push([]);
      hands.at(-1)?.push(event as DomainEvent);
    }
    for (const [index, played] of hands.entries()) {
      hand = index;
      for (const event of played) controller.input(event as never);
      // Everything this hand made reaches the floor and the screen before the next one is dealt.
      await sleep(60);
      for (const path of ['/healthz', '/api/state']) {
        say(`HTTP ${path}`, await (await fetch(`${controller.httpUrl}${path}`)).text());
      }
    }
    await sleep(200);

    const found = hands.flatMap((played, index) => {
      // A card a ruling has named is public from then on (an open incident may name it hands later).
      const secrets = holeCards(played, outputs.slice(0, index + 1).flat());
      return said
        .filter((s) => s.hand === index)
        .flatMap((s) => leaks(secrets, s.text, `hand ${index} ${s.where}`));
    });
    expect(found).toEqual([]);
    const secretsSaid = said.filter((s) => s.text.includes(PIN) || s.text.includes(MQTT_PASSWORD));
    expect(secretsSaid.map((s) => s.where)).toEqual([]);
    // The scan saw the session: every hand spoke on the display, MQTT and HTTP, and the log spoke often.
    expect(hands).toHaveLength(HANDS);
    expect(said.filter((s) => s.where === 'log').length).toBeGreaterThan(HANDS / 2);
    for (const where of ['display', 'MQTT croupier/v1/leaks/state', 'HTTP /api/state']) {
      expect(new Set(said.filter((s) => s.where === where).map((s) => s.hand)).size, where).toBe(HANDS);
    }
    expect(said.filter((s) => s.where === 'MQTT croupier/v1/leaks/incident').length).toBeGreaterThan(100);
  });
});
