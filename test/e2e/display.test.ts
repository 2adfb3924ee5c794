import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { readyDeck } from '../deck-reports.js';
import { type LiveTable, playOn, startLiveTable, until } from '../integration/live-table.js';
import { requireSocat } from '../integration/pty.js';
import { leakedSecrets } from '../integration/secrets.js';

/*
 * The dealer display in a real Chromium, against the controller running the virtual table: the dealer
 * exposes the second card of the deal, the alert shows the ruling and its steps, the dealer confirms
 * them one by one and the table goes back to normal play. No WebSocket message names a hole card.
 */

const CHROMIUM = '/usr/bin/chromium';
const SCENARIO = fileURLToPath(
  new URL('../scenarios/main-event-2014/exposed-card-dealer-card-2.yaml', import.meta.url),
);
/** The misdeal's steps: which the sensors can see. */
const SENSED = [null, 'cards-collected', 'bets-returned', 'button-stays', 'shuffler-verified', null];
/** The scenario up to the dealer's report of the exposed card. */
const THROUGH_EXPOSED = 4;

requireSocat('the display tests');
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no ${CHROMIUM}: the display tests need Debian's chromium (scripts/setup.sh installs it)`,
    );
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
});

async function open(live: LiveTable): Promise<{ page: Page; frames: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, hasTouch: true });
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
  await page.goto(live.controller.httpUrl);
  await page.getByTestId('connection').waitFor();
  return { page, frames };
}

describe('the dealer display', () => {
  it('walks the dealer through an exposed card: alert with ruling and steps, sensed steps ticking themselves, the rest confirmed, back to play, then a floor call', {
    timeout: 90_000,
  }, async ({ expect, onTestFinished }) => {
    const undo: (() => Promise<unknown>)[] = [];
    onTestFinished(async () => {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    });
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    const events = scenario.events.slice(0, THROUGH_EXPOSED);
    const [expected] = replayEvents({ seats: scenario.table.seats, profile: scenario.profile }, events).map(
      publicOutput,
    );
    if (expected?.kind !== 'incident') throw new Error('the scenario must open an incident');
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: { seats: scenario.table.seats }, display: { language: 'fr' } },
    );
    await until(
      10_000,
      () => 'the reader online',
      () => live.controller.health.report().devices[0]?.status === 'online',
    );
    const { page, frames } = await open(live);
    undo.push(() => page.close());
    // When the alert appears, by the page's clock (the same machine's).
    // A page script (run in Chromium, so a string: Node's types know no DOM).
    await page.evaluate(`
      new MutationObserver(() => {
        if (window.alertAt === undefined && document.querySelector('[data-testid="alert"]')) window.alertAt = Date.now();
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    `);

    const ruled = firstValueFrom(live.controller.updates.pipe(filter(({ outputs }) => outputs.length > 0)));
    const play = playOn(live, events);
    undo.push(async () => play.stop());
    await ruled;
    const ruledAt = Date.now();
    const alert = page.getByTestId('alert');
    await alert.waitFor();
    const alertAt = (await page.evaluate('window.alertAt')) as number;
    expect(alertAt - ruledAt).toBeLessThan(100);

    await expect.poll(() => page.getByTestId('alert-rule').textContent()).toContain(expected.rule);
    expect(await page.getByTestId('alert-incident').textContent()).not.toBe('');
    const steps = expected.steps.length;
    expect(await page.locator('[data-testid^="step-"]').count()).toBe(steps);

    // Touch: every button a finger can hit.
    for (const button of await page.locator('button').all()) {
      const box = await button.boundingBox();
      if (box)
        expect(Math.min(box.width, box.height), (await button.textContent()) ?? '').toBeGreaterThanOrEqual(
          48,
        );
    }

    // French, then English, then French again: the incident's name follows.
    const french = await page.getByTestId('alert-incident').textContent();
    await page.getByTestId('lang-en').tap();
    await expect.poll(() => page.getByTestId('alert-incident').textContent()).not.toBe(french);
    await page.getByTestId('lang-fr').tap();
    await expect.poll(() => page.getByTestId('alert-incident').textContent()).toBe(french);

    const confirm = async (i: number) => {
      await expect.poll(() => page.getByTestId(`step-${i}`).getAttribute('data-current')).toBe('true');
      await page.getByTestId('confirm').tap();
    };
    // Stop, collect, return the bets: the dealer confirms what the sensors do not see.
    expect(expected.steps.map((step) => step.check ?? null)).toEqual(SENSED);
    for (const i of [0, 1, 2]) await confirm(i);
    // The button stays and the deck is verified at 52: the table sees both, and the steps tick themselves.
    const sensed = playOn(live, [
      { type: 'button', t: 0, seq: 0, seat: 9 },
      { ...readyDeck('A', 500), seq: 1 },
    ]);
    undo.push(async () => sensed.stop());
    await sensed.done;
    for (const i of [3, 4]) {
      await expect.poll(() => page.getByTestId(`step-${i}`).getAttribute('data-done')).toBe('true');
    }
    await confirm(5);
    await alert.waitFor({ state: 'detached' });
    expect(live.controller.health.report().status).toBe('ok');

    // The call-floor button is always there, and reaches the table (which, the hand being void, waits).
    const called = firstValueFrom(
      live.controller.updates.pipe(
        filter(({ event }) => event.type === 'dealer' && event.input === 'call-floor'),
      ),
    );
    await page.getByTestId('call-floor').tap();
    expect((await called).event).toMatchObject({ type: 'dealer', input: 'call-floor' });

    const messages = frames.map((payload) => ({
      topic: 'display',
      payload: Buffer.from(payload),
      retain: false,
    }));
    expect(messages.length).toBeGreaterThan(3);
    expect(leakedSecrets({ ...scenario, events }, [expected], messages, [])).toEqual([]);
  });
});
