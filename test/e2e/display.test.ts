import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { describe, it } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { replayEvents } from '../../src/table/table.js';
import { readyDeck } from '../deck-reports.js';
import { cleanupsOf, type LiveTable, playOn, startLiveTable, until } from '../integration/live-table.js';
import { leakedSecrets } from '../integration/secrets.js';
import { openDisplay, screenshot, useChromium } from './browser.js';

/*
 * The dealer display in a real Chromium, against the controller running the virtual table: the dealer
 * exposes the second card of the deal, the alert shows the ruling and its steps, the dealer confirms
 * them one by one and the table goes back to normal play. No WebSocket message names a hole card.
 */

const SCENARIO = fileURLToPath(
  new URL('../scenarios/main-event-2014/exposed-card-dealer-card-2.yaml', import.meta.url),
);
/** The misdeal's steps: which the sensors can see. */
const SENSED = [null, 'cards-collected', 'bets-returned', 'button-stays', 'shuffler-verified', null];
/** The scenario up to the dealer's report of the exposed card. */
const THROUGH_EXPOSED = 4;
const PREMATURE_TURN = fileURLToPath(
  new URL('../scenarios/main-event-2014/premature-turn.yaml', import.meta.url),
);
/** That scenario through the flop's first bets, then through the turn turned too early. */
const THROUGH_FLOP_BETS = 26;
const THROUGH_PREMATURE_TURN = 28;
const PIN = '2468';
const EXPOSED_BY_PLAYER = fileURLToPath(
  new URL('../scenarios/main-event-2014/exposed-card-player.yaml', import.meta.url),
);
/** That scenario through the player's exposed card (CARD_LIVE) and the rest of the deal. */
const THROUGH_DEAL = 13;

const browser = useChromium();

const open = (live: LiveTable) => openDisplay(browser(), live.controller.httpUrl);

describe('the dealer display', () => {
  // With a reader board that reports its rounds, and with one that does not (revision 1.0).
  it.for([{ rounds: true }, { rounds: false }])(
    'walks the dealer through an exposed card: alert with ruling and steps, sensed steps ticking themselves, the rest confirmed, back to play, then a floor call (round reports: $rounds)',
    {
      timeout: 90_000,
    },
    async ({ rounds }, { expect, onTestFinished }) => {
      const undo = cleanupsOf(onTestFinished);
      const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
      const events = scenario.events.slice(0, THROUGH_EXPOSED);
      const [expected] = replayEvents({ seats: scenario.table.seats, profile: scenario.profile }, events).map(
        publicOutput,
      );
      if (expected?.kind !== 'incident') throw new Error('the scenario must open an incident');
      const live = await startLiveTable(
        { push: (step) => undo.push(step) },
        { table: { seats: scenario.table.seats }, display: { language: 'fr' }, rounds },
      );
      await until(
        10_000,
        () => 'the reader online',
        () => live.controller.health.report().devices[0]?.status === 'online',
      );
      const { page, frames } = await open(live);
      undo.push(() => page.close());
      const ruled = firstValueFrom(live.controller.updates.pipe(filter(({ outputs }) => outputs.length > 0)));
      const play = playOn(live, events);
      undo.push(async () => play.stop());
      await ruled;
      // How soon it shows is the bench's `alert_after_card_*`; here, what it says first: STOP.
      const alert = page.getByTestId('alert');
      await alert.waitFor();
      expect(await page.getByTestId('alert-stop').textContent()).toBe('STOP');
      expect(await alert.evaluate((node) => node.textContent?.trim().startsWith('STOP'))).toBe(true);
      await screenshot(page, 'misdeal');

      await expect.poll(() => page.getByTestId('alert-rule').textContent()).toContain(expected.rule);
      // The same state as plain JSON, for anything that is not a screen.
      const api = await (await fetch(`${live.controller.httpUrl}/api/state`)).text();
      expect(JSON.parse(api)).toMatchObject({
        type: 'state',
        state: { incident: { ruling: expected.ruling, step: 0 } },
      });
      frames.push(api);
      expect(await page.getByTestId('alert-incident').textContent()).not.toBe('');
      const steps = expected.steps.length;
      expect(await page.locator('[data-testid^="step-"]').count()).toBe(steps);

      // Touch: every button a finger can hit.
      for (const button of await page.locator('button').all()) {
        const box = await button.boundingBox();
        if (!box) continue;
        const name = (await button.textContent()) ?? '';
        expect(Math.min(box.width, box.height), name).toBeGreaterThanOrEqual(48);
        // And on the screen: a long name in the bar never pushes a button off its right edge.
        expect(box.x + box.width, name).toBeLessThanOrEqual(1280);
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
      await confirm(0);
      // The cards come off the seats, the blinds go back, the button stays, the deck is verified at 52:
      // the simulated devices show each, and each step ticks itself.
      const card = (face: 'Kh' | '9s') =>
        scenario.registry.lookup(scenario.registry.uidOf('A', face) as string);
      const sensed = playOn(
        live,
        [
          { type: 'card.gone', t: 0, zone: 'seat:1', ...card('Kh') },
          { type: 'card.gone', t: 300, zone: 'seat:2', ...card('9s') },
          { type: 'chips', t: 600, zone: 'bet:1', amount: 0 },
          { type: 'chips', t: 900, zone: 'bet:2', amount: 0 },
          { type: 'button', t: 1200, seat: 9 },
          readyDeck('A', 1500),
        ].map((event, seq) => ({ ...event, seq }) as DomainEvent),
      );
      undo.push(async () => sensed.stop());
      await sensed.done;
      for (const i of [1, 2, 3, 4]) {
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
    },
  );

  it('lets a signed-in supervisor overrule a premature turn and void the hand, then the dealer starts the next hand', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const scenario = parseScenarioText(await readFile(PREMATURE_TURN, 'utf8'), PREMATURE_TURN);
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      {
        table: { seats: scenario.table.seats },
        display: { language: 'en' },
        supervisors: [{ name: 'Marie Floor', pin: await hashSecret(PIN) }],
      },
    );
    const { page } = await open(live);
    undo.push(() => page.close());
    await expect.poll(() => page.locator('[data-testid^="seat-"][data-status]').count()).toBe(9);

    // Normal play: the flop out, the flop betting under way.
    const flop = playOn(live, scenario.events.slice(0, THROUGH_FLOP_BETS));
    undo.push(async () => flop.stop());
    await flop.done;
    await expect.poll(() => page.getByTestId('board').locator('.card').count()).toBe(3);
    await screenshot(page, 'normal-play');

    const turnEvents = scenario.events.slice(THROUGH_FLOP_BETS, THROUGH_PREMATURE_TURN);
    const turnStart = (turnEvents[0]?.t ?? 0) - 500;
    const turn = playOn(
      live,
      turnEvents.map((event) => ({ ...event, t: event.t - turnStart })),
    );
    undo.push(async () => turn.stop());
    await turn.done;
    await expect
      .poll(() => page.getByTestId('alert-ruling').getAttribute('data-code'))
      .toBe('TURN_SET_ASIDE');
    await screenshot(page, 'premature-turn');

    // The supervisor's panel, over the alert: a wrong PIN is refused, the right one signs in.
    await page.getByTestId('supervisor').tap();
    const typePin = async (pin: string) => {
      for (const digit of pin) await page.getByTestId(`pad-${digit}`).tap();
      await page.getByTestId('pad-enter').tap();
    };
    await typePin('1111');
    await expect.poll(() => page.getByTestId('floor-note').textContent()).toContain('PIN refused');
    await typePin(PIN);
    await page.getByTestId('decide-continue').waitFor();
    for (const button of await page.getByTestId('floor-panel').locator('button').all()) {
      const box = await button.boundingBox();
      if (box) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(48);
    }

    // Overruled: the procedure closes and the hand goes on; the decision is signed with the supervisor's name.
    const signed = (value: string) =>
      firstValueFrom(
        live.controller.updates.pipe(
          filter(
            ({ event }) =>
              event.type === 'dealer' && event.input === 'floor-decision' && event.value === value,
          ),
        ),
      );
    const overruled = signed('continue');
    await page.getByTestId('decide-continue').tap();
    expect((await overruled).event).toMatchObject({ supervisor: 'Marie Floor' });
    await expect.poll(() => page.getByTestId('floor-note').textContent()).toContain('Marie Floor');
    await page.getByTestId('floor-close').tap();
    await page.getByTestId('alert').waitFor({ state: 'detached' });

    // Then voided: the hand waits for the redeal, and the dealer starts it from the display.
    await page.getByTestId('supervisor').tap();
    const voided = signed('void');
    await page.getByTestId('decide-void').tap();
    expect((await voided).snapshot.context.phase).toBe('void');
    // The last hands from the journal, for the supervisor: this one, with the ruling it had.
    await page.getByTestId('recent-hands').tap();
    await expect.poll(() => page.getByTestId('recent-1').textContent()).toContain('Turn set aside');
    await page.getByTestId('recent-back').tap();
    await page.getByTestId('sign-out').tap();
    await page.getByTestId('floor-close').tap();
    // The table starts the redeal itself on the dealer's touch: after a void hand, the same hand again.
    const started = firstValueFrom(
      live.controller.updates.pipe(
        filter(({ event }) => event.type === 'dealer' && event.input === 'next-hand'),
      ),
    );
    await page.getByTestId('next-hand').tap();
    expect((await started).snapshot.context.hand).toMatchObject({
      button: 9,
      players: [1, 2, 3, 5, 6, 9],
      blinds: [50, 100],
    });
    await expect.poll(() => page.getByTestId('next-hand').count()).toBe(0);
    expect(live.logs.some((line) => line.includes('"supervisor":"Marie Floor"'))).toBe(true);
    expect(live.logs.join('\n')).not.toContain(PIN);
  });

  it('shows a card its player exposed face up on his seat once the dealer has done the ruling, and no other card', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const scenario = parseScenarioText(await readFile(EXPOSED_BY_PLAYER, 'utf8'), EXPOSED_BY_PLAYER);
    const events = scenario.events.slice(0, THROUGH_DEAL);
    const [expected] = replayEvents({ seats: scenario.table.seats, profile: scenario.profile }, events).map(
      publicOutput,
    );
    if (expected?.kind !== 'incident' || expected.ruling !== 'CARD_LIVE')
      throw new Error('CARD_LIVE expected');
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: { seats: scenario.table.seats } },
    );
    const { page, frames } = await open(live);
    undo.push(() => page.close());
    const play = playOn(live, events);
    undo.push(async () => play.stop());
    await play.done;
    for (const i of expected.steps.keys()) {
      await expect.poll(() => page.getByTestId(`step-${i}`).getAttribute('data-current')).toBe('true');
      await page.getByTestId('confirm').tap();
    }
    await page.getByTestId('alert').waitFor({ state: 'detached' });
    const [exposed] = expected.cards;
    if (!exposed || !('face' in exposed)) throw new Error('CARD_LIVE names the exposed card');
    const seat = expected.seats[0];
    await expect.poll(() => page.getByTestId(`seat-${seat}-count`).textContent()).toBe('2');
    const faceUp = page.getByTestId(`seat-${seat}-face-up`).getByTestId('card');
    expect(await faceUp.count()).toBe(1);
    expect(await faceUp.getAttribute('data-face')).toBe(exposed.face);
    // Every other hole card stays a count: no other seat shows a card.
    expect(await page.locator('[data-testid$="-face-up"]').count()).toBe(1);
    const messages = frames.map((payload) => ({
      topic: 'display',
      payload: Buffer.from(payload),
      retain: false,
    }));
    expect(leakedSecrets({ ...scenario, events }, [expected], messages, [])).toEqual([]);
  });
});
