import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { connectAsync } from 'mqtt';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import WebSocket from 'ws';
import { corpusDocument, loadCorpus, type ScenarioDocument } from '../../bench/lib/corpus.js';
import { parseConfig } from '../../src/config/config.js';
import { startController } from '../../src/controller/controller.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { type PublicOutput, publicOutput } from '../../src/outputs/public.js';
import { loadScenario } from '../../src/scenario/load.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf } from './live-table.js';
import { holeCards, leaks, type Secret, stillSecret } from './secrets.js';

/*
 * Every showdown of the corpus (hands tabled, hands mucked unshown, a winner who never shows, the fold
 * win), then a 200-hand session (the scenario corpus: clean hands and every irregularity), through
 * croupier, and everything it says scanned, hand by hand, for the identity of that hand's hole cards
 * and for any configured secret: every log line at info and above, every public MQTT payload, every
 * display message, and the HTTP answers (`/healthz`, `/api/state`). A card is secret until its seat's
 * `shown`; after it, it may appear (and the scan checks it does).
 */

const HANDS = 200;
const SHOWDOWNS = fileURLToPath(new URL('../scenarios/showdown', import.meta.url));
/** Between the showdowns and the session: longer than the reordering window and a read's presence. */
const PAUSE_MS = 5000;
/** Tabled cards the night's showdowns hold, that no earlier ruling had named: each must appear. */
const TABLED_AT_LEAST = 50;
const PIN = '739164';
const MQTT_PASSWORD = 'canary-floor-password-5521';

interface Said {
  hand: number;
  /** How many of the hand's events croupier had been given when it was said. */
  played: number;
  where: string;
  text: string;
}

/**
 * The showdown files' hands, then the session's, timed on from their last event. The showdowns come
 * first: a face a ruling named is public for the rest of the night, and a long night names most faces.
 */
function showdownsThen(night: ScenarioDocument): { night: ScenarioDocument; showdowns: number } {
  const corpus = loadCorpus(SHOWDOWNS);
  const first = corpusDocument(corpus, corpus.hands);
  const start = ((first.events.at(-1)?.t as number) ?? 0) + PAUSE_MS;
  const then = night.events.map((item) => ({ ...item, t: (item.t as number) + start }));
  return { night: { ...night, events: [...first.events, ...then] }, showdowns: corpus.hands };
}

const isShown = (event: DomainEvent) => event.type === 'dealer' && event.input === 'shown';

describe('secrets stay secret', () => {
  it(`over a ${HANDS}-hand session: no hole card and no configured secret in anything croupier says`, {
    timeout: 300_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-leaks-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const { night, showdowns } = showdownsThen(corpusDocument(loadCorpus(), HANDS));
    const { events } = loadScenario(night, 'night');
    let hand = 0;
    let played = 0;
    const said: Said[] = [];
    const say = (where: string, text: string) => said.push({ hand, played, where, text });
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
    for (const [index, dealt] of hands.entries()) {
      hand = index;
      played = 0;
      for (const event of dealt) {
        // Everything said before a seat tables its hand is heard before the `shown`: its cards are secret.
        if (isShown(event)) await sleep(60);
        controller.input(event as never);
        played++;
      }
      // Everything this hand made reaches the floor and the screen before the next one is dealt.
      await sleep(60);
      for (const path of ['/healthz', '/api/state']) {
        say(`HTTP ${path}`, await (await fetch(`${controller.httpUrl}${path}`)).text());
      }
    }
    await sleep(200);

    // A card a ruling has named is public from then on (an open incident may name it hands later).
    const secrets = hands.map((dealt, index) => holeCards(dealt, outputs.slice(0, index + 1).flat()));
    const found = said.flatMap((s) =>
      leaks(stillSecret(secrets[s.hand] ?? [], s.played), s.text, `hand ${s.hand} ${s.where}`),
    );
    expect(found).toEqual([]);
    // Not vacuous: showdowns were played to their awards, every tabled card did appear once tabled (on
    // the screen, MQTT and /api/state), and hands mucked unshown and a winner who never showed were there.
    const awarded = (index: number) => outputs[index]?.some((output) => output.kind === 'award') ?? false;
    const shownDown = hands.flatMap((dealt, index) => (dealt.some(isShown) && awarded(index) ? [index] : []));
    expect(shownDown.length).toBeGreaterThanOrEqual(10);
    const tabled = secrets.flatMap((cards, index) =>
      cards.filter((card) => card.tabledAt !== null).map((card) => ({ card, index })),
    );
    expect(tabled.length).toBeGreaterThanOrEqual(TABLED_AT_LEAST);
    const appeared = (card: Secret, index: number, where: string) =>
      said.some(
        (s) =>
          s.hand === index &&
          s.where === where &&
          s.played > (card.tabledAt as number) &&
          leaks([card], s.text, where).length > 0,
      );
    for (const where of ['display', 'MQTT croupier/v1/leaks/state', 'HTTP /api/state']) {
      const unseen = tabled.filter(({ card, index }) => !appeared(card, index, where));
      expect(
        unseen.map(({ card, index }) => `hand ${index}: ${card.face}`),
        where,
      ).toEqual([]);
    }
    const orders = outputs.map((ruled) =>
      ruled.flatMap((output) =>
        output.kind === 'prompt' && output.prompt === 'SHOW_ORDER' ? output.seats : [],
      ),
    );
    const muckedUnshown = hands.filter((dealt, index) =>
      (secrets[index] ?? []).some(
        (card) => card.tabledAt === null && muckedFrom(dealt, card.uid, orders[index] ?? []),
      ),
    );
    expect(muckedUnshown.length).toBeGreaterThanOrEqual(2);
    const wonUnshown = outputs.filter((ruled, index) =>
      ruled.some(
        (output) =>
          output.kind === 'award' &&
          (orders[index] ?? []).length > 1 &&
          output.winners.every((seat) => !(seat in output.hands)),
      ),
    );
    expect(wonUnshown.length).toBeGreaterThanOrEqual(1);
    const secretsSaid = said.filter((s) => s.text.includes(PIN) || s.text.includes(MQTT_PASSWORD));
    expect(secretsSaid.map((s) => s.where)).toEqual([]);
    // The scan saw the session: every hand spoke on the display, MQTT and HTTP, and the log spoke often.
    expect(hands).toHaveLength(HANDS + showdowns);
    expect(said.filter((s) => s.where === 'log').length).toBeGreaterThan(HANDS / 2);
    for (const where of ['display', 'MQTT croupier/v1/leaks/state', 'HTTP /api/state']) {
      expect(new Set(said.filter((s) => s.where === where).map((s) => s.hand)).size, where).toBe(
        HANDS + showdowns,
      );
    }
    expect(said.filter((s) => s.where === 'MQTT croupier/v1/leaks/incident').length).toBeGreaterThan(100);
  });
});

/** The card reached the muck from one of `seats` (the seats in the show order: not a fold). */
function muckedFrom(events: readonly DomainEvent[], uid: string, seats: readonly number[]): boolean {
  const from = events.find(
    (event) => event.type === 'card.seen' && event.uid === uid && event.zone !== 'muck',
  );
  const seat = from?.type === 'card.seen' ? Number(from.zone.replace('seat:', '')) : Number.NaN;
  return (
    seats.includes(seat) &&
    events.some((event) => event.type === 'card.seen' && event.zone === 'muck' && event.uid === uid)
  );
}
