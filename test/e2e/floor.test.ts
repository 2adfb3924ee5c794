import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import { startFloorLoad } from '../../simulators/floor-load/room.js';
import { parseConfig } from '../../src/config/config.js';
import { startFloor } from '../../src/floor/service.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf, playOn, startLiveTable, until } from '../integration/live-table.js';
import { startMosquitto } from '../integration/mosquitto.js';
import { SCREEN, screenshot, useChromium } from './browser.js';

/*
 * The floor's page in a real Chromium, on a real Mosquitto (issue 20): a dealer calls the floor on a
 * real table's display; the call comes up on the floor's page at the top of the room's list, with a
 * sound and a flash; a supervisor signs in on the tablet with their PIN and answers "on my way"; the
 * table's display then shows who is coming. Around it, a room of simulated tables.
 */

const HAND = fileURLToPath(new URL('../scenarios/clean/me-several-hands.yaml', import.meta.url));
/** The first hand dealt to its fourth hole card: a hand in play the dealer can call the floor on. */
const DEALING = 9;
const PIN = '2468';
const TABLET = { viewport: { width: 1280, height: 800 }, hasTouch: true };

/**
 * Counts the tones the page plays. A headless Chromium sounding through the system's audio would start
 * a sound server of its own (it leaves a folder behind): the page's AudioContext renders offline here.
 */
const CHIME_SPY = `
  window.played = [];
  window.AudioContext = class extends OfflineAudioContext {
    constructor() { super(1, 48000, 48000); }
    get state() { return 'running'; }
    resume() { return Promise.resolve(); }
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.played.push(this.frequency.value);
    return start.apply(this, args);
  };
`;

const browser = useChromium();

describe('the floor page', () => {
  it('shows a dealer’s call at the top of the room, and a supervisor’s "on my way" on the table’s display', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-floor-page-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const broker = await startMosquitto({ push: (step) => undo.push(step) });
    const supervisors = [{ name: 'Marie', pin: await hashSecret(PIN) }];
    const scenario = parseScenarioText(await readFile(HAND, 'utf8'), HAND);
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      {
        table: { id: 'T07', seats: scenario.table.seats },
        mqtt: { url: broker.url },
        display: { language: 'en' },
        supervisors,
      },
    );
    // A room around it: tables playing, a few with incidents open.
    const load = await startFloorLoad({
      url: broker.url,
      tables: 30,
      prefix: 'T',
      seed: 3,
      handMs: 60_000,
      incidentsPerTableHour: 0,
      callsPerTableHour: 0,
      burstEveryMs: 0,
      offlinePerTableHour: 0,
    });
    undo.push(() => load.stop());
    const floor = await startFloor(
      parseConfig({
        mqtt: { url: broker.url },
        supervisors,
        display: { language: 'en' },
        floor: { port: 0, stats: join(dir, 'floor.db') },
      }),
      'test',
      pino({ level: 'silent' }),
    );
    undo.push(() => floor.close());
    load.burst(4);

    const tablet = await browser().newPage(TABLET);
    undo.push(() => tablet.close());
    // The page's chime, heard: each tone it plays, on a context that renders offline (no sound device).
    await tablet.addInitScript(CHIME_SPY);
    await tablet.goto(floor.url);
    await expect.poll(() => tablet.locator('croupier-tile').count(), { timeout: 20_000 }).toBe(31);
    await expect.poll(() => tablet.locator('croupier-call').count()).toBe(4);
    // Sound is allowed once a finger touched the page.
    await tablet.getByTestId('sound').tap();

    // The dealer is dealing; they call the floor from the table's own screen.
    const display = await browser().newPage(SCREEN);
    undo.push(() => display.close());
    await display.goto(live.controller.httpUrl);
    const play = playOn(live, scenario.events.slice(0, DEALING));
    undo.push(async () => play.stop());
    await play.done;
    await until(
      5000,
      () => 'the hand dealing',
      () => live.controller.snapshot().context.hand !== null,
    );
    await display.getByTestId('call-floor').tap();

    // On the floor's page: at the top of the list (a dealer's call is urgent), rung and flashed.
    const call = tablet.getByTestId('floor-call-T07');
    await call.waitFor({ timeout: 10_000 });
    await expect.poll(() => call.getAttribute('data-urgent')).toBe('true');
    await expect.poll(() => tablet.getByTestId('floor-alert').textContent()).toContain('T07');
    await expect.poll(() => tablet.evaluate('window.played.length')).toBeGreaterThan(0);
    await expect.poll(() => tablet.getByTestId('tile-call-T07').textContent()).toContain('calls the floor');
    await screenshot(tablet, 'floor-call');

    // A supervisor signs in on the tablet and answers.
    await tablet.getByTestId('floor-supervisor').tap();
    for (const digit of PIN) await tablet.getByTestId(`pad-${digit}`).tap();
    await tablet.getByTestId('pad-enter').tap();
    await tablet.getByTestId('answer-T07').tap();
    await expect
      .poll(() => tablet.getByTestId('coming-T07').textContent(), { timeout: 10_000 })
      .toContain('Marie');

    // The table's display says who is coming; the decision is still the table's to sign.
    await expect.poll(() => display.getByTestId('call-floor').getAttribute('data-coming')).toBe('Marie');
    expect(await display.getByTestId('call-floor').textContent()).toContain('Marie is on the way');
    await screenshot(display, 'floor-answered-display');
    await screenshot(tablet, 'floor-answered');

    // French too.
    await tablet.getByTestId('lang-fr').tap();
    await expect.poll(() => tablet.getByTestId('coming-T07').textContent()).toContain('Marie arrive');
    for (const button of await tablet.locator('button').all()) {
      const box = await button.boundingBox();
      if (box) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(48);
    }

    // The statistics page.
    await tablet.getByTestId('view-stats').tap();
    await tablet.getByTestId('stats').locator('tbody tr').first().waitFor();
    await screenshot(tablet, 'floor-stats');
  });
});
