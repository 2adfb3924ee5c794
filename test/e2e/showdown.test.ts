import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import type { DomainEvent } from '../../src/domain/events.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText, type Scenario } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { cleanupsOf, type LiveTable, playOn, startLiveTable } from '../integration/live-table.js';
import { holeCards, leakedSecrets, stillSecret } from '../integration/secrets.js';
import { openDisplay, screenshot, useChromium } from './browser.js';

/*
 * The showdown on the dealer display, in a real Chromium, against the controller running the virtual
 * table. Two hands: a three-way all-in (a short stack, a medium and a big one against a deep caller)
 * makes two side pots, one of them split with an odd chip; then a river showdown in order where the
 * best hand is mucked unshown, the best tabled hand wins, and the dealer sweeps one of its cards into
 * the muck. What the dealer sees is checked against amounts worked out here by hand, and no card that
 * was never tabled reaches the page or anything croupier says.
 */

const scenarioFile = (name: string) =>
  fileURLToPath(new URL(`../scenarios/showdown/${name}.yaml`, import.meta.url));

/*
 * Hand 1 (three-way-all-in-split.yaml): seat 1 puts in 300 (all-in), seat 3 825 (all-in), seat 5 1500
 * (all-in), seat 7 calls 1500; seat 8 folds with nothing in. Layered at each all-in total:
 */
const SHORT = 300;
const MEDIUM = 825;
const BIG = 1500;
const MAIN = 4 * SHORT; // seats 1, 3, 5, 7
const SIDE_1 = 3 * (MEDIUM - SHORT); // seats 3, 5, 7
const SIDE_2 = 2 * (BIG - MEDIUM); // seats 5, 7 (seat 7 matched the 1500 exactly: nothing uncalled)
/** Side 1 is split by seats 3 and 5 in whole chips; the one left over goes to seat 3, first left of the button (8). */
const HALF = Math.floor(SIDE_1 / 2);
const SPLIT = { 3: SIDE_1 - HALF, 5: HALF };

/** Hand 2 (show-order-best-hand-mucked-unshown.yaml): three players put in 100 preflop and 200 on the river. */
const HAND_2_POT = 3 * 100 + 3 * 200;
/** Through seat 6's muck, then seat 2's `shown` (the pot is settled), then its Jd reaching the muck. */
const THROUGH_MUCK = 31;
const THROUGH_AWARD = 32;

const browser = useChromium();

async function load(name: string): Promise<Scenario> {
  const file = scenarioFile(name);
  return parseScenarioText(await readFile(file, 'utf8'), file);
}

const open = (live: LiveTable) => openDisplay(browser(), live.controller.httpUrl);

/** Plays events on the live table, timed from now. */
async function play(live: LiveTable, undo: (() => Promise<unknown>)[], events: readonly DomainEvent[]) {
  const start = (events[0]?.t ?? 0) - 300;
  const played = playOn(
    live,
    events.map((event) => ({ ...event, t: event.t - start })),
  );
  undo.push(async () => played.stop());
  await played.done;
}

/** The dealer collects every card of a hand: each leaves the antenna it was last read on. */
function collected(events: readonly DomainEvent[]): DomainEvent[] {
  const last = new Map<string, DomainEvent & { type: 'card.seen' }>();
  for (const event of events) if (event.type === 'card.seen') last.set(event.uid, event);
  return [...last.values()].map((seen, i) => ({ ...seen, type: 'card.gone', t: i * 50, seq: i }));
}

/** The faces the page shows as cards, by their `data-face`. */
async function facesOn(page: Page): Promise<string[]> {
  return page
    .locator('[data-face]')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-face') ?? ''));
}

const text = async (locator: Locator) => (await locator.textContent())?.replace(/\s+/g, ' ').trim();

describe('the dealer display at the showdown', () => {
  it('shows the pots of a three-way all-in with a split side pot, then a show order, a hand mucked unshown and a tabled winner in the muck', {
    timeout: 150_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const allIn = await load('three-way-all-in-split');
    const inOrder = await load('show-order-best-hand-mucked-unshown');
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: { seats: 9 }, display: { language: 'fr' } },
    );
    const { page, frames } = await open(live);
    undo.push(() => page.close());

    // Hand 1: the all-in, every hand tabled before the flop, the board run out.
    await play(live, undo, allIn.events);
    const pot = (n: number) => page.getByTestId(`pot-${n}`);
    await expect.poll(() => pot(0).getAttribute('data-winners')).toBe('1');
    expect(await page.getByTestId('face-up').count()).toBe(1);
    expect(await page.getByTestId('show-order').count()).toBe(0);
    expect(await page.getByTestId('prompt').count()).toBe(0);
    const pots = [
      { n: 0, amount: MAIN, eligible: '1,3,5,7', winners: '1' },
      { n: 1, amount: SIDE_1, eligible: '3,5,7', winners: '3,5' },
      { n: 2, amount: SIDE_2, eligible: '5,7', winners: '5' },
    ];
    for (const { n, amount, eligible, winners } of pots) {
      expect(await pot(n).getAttribute('data-amount'), `pot ${n}`).toBe(String(amount));
      expect(await pot(n).getAttribute('data-eligible'), `pot ${n}`).toBe(eligible);
      expect(await pot(n).getAttribute('data-winners'), `pot ${n}`).toBe(winners);
    }
    const share = (n: number, seat: number) => page.getByTestId(`pot-${n}-winner-${seat}`);
    expect(await share(0, 1).getAttribute('data-share')).toBe(String(MAIN));
    expect(await share(1, 3).getAttribute('data-share')).toBe(String(SPLIT[3]));
    expect(await share(1, 5).getAttribute('data-share')).toBe(String(SPLIT[5]));
    expect(await share(1, 3).getAttribute('data-odd')).toBe('1');
    expect(await share(1, 5).getAttribute('data-odd')).toBe('');
    expect(await share(2, 5).getAttribute('data-share')).toBe(String(SIDE_2));
    expect(await text(page.getByTestId('pot-1-odd'))).toBe('+1 jeton impair');
    expect(await text(pot(0))).toContain('Pot principal');
    expect(await text(pot(2))).toContain('Pot annexe 2');
    // The winning hands' names, in French, then in English.
    const names = {
      fr: ['Full aux rois par les sept', 'Deux paires, neuf et sept', 'Deux paires, neuf et sept'],
      en: ['Kings full of sevens', 'Two pair, nines and sevens', 'Two pair, nines and sevens'],
    };
    const winningHands = () => Promise.all([0, 1, 2].map((n) => text(page.getByTestId(`pot-${n}-hand`))));
    expect(await winningHands()).toEqual(names.fr);
    expect(await text(page.getByTestId('seat-7-hand'))).toBe('Paire de sept');
    // Tabled seats show their cards face up; the folded seat 8 shows none.
    const tabled = { 1: ['Kh', 'Ks'], 3: ['9h', 'Qd'], 5: ['9s', 'Qs'], 7: ['Ah', 'Jd'] };
    for (const [seat, faces] of Object.entries(tabled)) {
      const shown = page.getByTestId(`seat-${seat}-tabled`).locator('[data-face]');
      expect(await shown.evaluateAll((cards) => cards.map((c) => c.getAttribute('data-face')))).toEqual(
        faces,
      );
    }
    expect(await page.getByTestId('seat-8-tabled').count()).toBe(0);
    expect(await page.getByTestId('seat-8').getAttribute('data-status')).toBe('folded');
    for (const seat of [1, 3, 5])
      expect(await page.getByTestId(`seat-${seat}`).getAttribute('data-won')).toBe('true');
    expect(await page.getByTestId('seat-7').getAttribute('data-won')).toBe('false');
    // The DOM holds the board and the tabled hands, and no other card.
    const board = ['Kc', '7d', '7s', '2h', '9c'];
    expect((await facesOn(page)).sort()).toEqual([...board, ...Object.values(tabled).flat()].sort());
    await screenshot(page, 'showdown-side-pots');
    await page.getByTestId('lang-en').tap();
    await expect.poll(winningHands).toEqual(names.en);
    expect(await text(page.getByTestId('pot-1-odd'))).toBe('+1 odd chip');
    expect(await text(page.getByTestId('seat-7-hand'))).toBe('Pair of sevens');

    // Hand 2, once the cards are collected: the river bettor shows first, then clockwise; seat 6 mucks
    // its three eights unshown.
    await play(live, undo, collected(allIn.events));
    // What was said during each hand, scanned for that hand's secrets (the next deals the same faces).
    const said = () => ({ frames: frames.length, mqtt: live.messages.length, logs: live.logs.length });
    const hand1 = said();
    await play(live, undo, inOrder.events.slice(0, THROUGH_MUCK));
    const order = (seat: number) => page.getByTestId(`order-${seat}`).getAttribute('data-mark');
    await expect.poll(() => order(6)).toBe('mucked');
    expect(await order(2)).toBe('next');
    // Seat 2 has not shown yet: no winner is named, though seat 4's is the only hand tabled.
    expect(await pot(0).getAttribute('data-winners')).toBe('');
    await play(live, undo, inOrder.events.slice(THROUGH_MUCK, THROUGH_AWARD));
    await expect.poll(() => pot(0).getAttribute('data-winners')).toBe('2');
    // The showdown is past its prompts: the banner goes, the pots say the rest.
    expect(await page.getByTestId('prompt').count()).toBe(0);
    expect(await page.getByTestId('show-order').getAttribute('data-seats')).toBe('4,6,2');
    const marks = await Promise.all([4, 6, 2].map(order));
    expect(marks).toEqual(['tabled', 'mucked', 'tabled']);
    expect(await pot(0).getAttribute('data-amount')).toBe(String(HAND_2_POT));
    expect(await pot(0).getAttribute('data-eligible')).toBe('2,4,6');
    expect(await share(0, 2).getAttribute('data-share')).toBe(String(HAND_2_POT));
    expect(await text(page.getByTestId('pot-0-hand'))).toBe('Two pair, jacks and threes');
    expect(await page.getByTestId('seat-6').getAttribute('data-status')).toBe('mucked');
    expect(await page.getByTestId('seat-6-tabled').count()).toBe(0);
    expect((await facesOn(page)).sort()).toEqual(
      ['Jc', '8d', '3s', 'Th', '2c', 'Ah', 'Jh', 'Jd', '3d'].sort(),
    );
    // Nor is the mucked hand named, though it would have won.
    expect(await page.locator('body').textContent()).not.toMatch(/Three eights|Brelan/);
    await page.getByTestId('lang-fr').tap();
    await expect.poll(() => text(page.getByTestId('pot-0-hand'))).toBe('Deux paires, valets et trois');
    await screenshot(page, 'showdown-show-order');

    // The dealer sweeps the winner's tabled Jd into the muck before the pot is pushed: stop.
    await play(live, undo, inOrder.events.slice(THROUGH_AWARD));
    await expect
      .poll(() => page.getByTestId('alert-incident').getAttribute('data-code'))
      .toBe('WINNING_HAND_MUCKED');
    expect(await text(page.getByTestId('alert-warning'))).toContain('ne peut pas être tuée');
    expect(await text(page.getByTestId('alert-hand-2'))).toBe('Deux paires, valets et trois');
    expect(await page.getByTestId('alert-seats').textContent()).toBe('2');
    expect(await page.getByTestId('alert').textContent()).toContain('Au muck');
    expect(await page.getByTestId('alert-cards').locator('[data-face]').getAttribute('data-face')).toBe('Jd');
    await screenshot(page, 'showdown-winner-mucked');

    // The same state as plain JSON, for anything that is not a screen.
    const api = await (await fetch(`${live.controller.httpUrl}/api/state`)).text();
    expect(JSON.parse(api)).toMatchObject({
      state: {
        showdown: { order: [4, 6, 2], pots: [{ pot: 0, amount: HAND_2_POT, award: { winners: [2] } }] },
      },
    });
    frames.push(api);

    // No card that was never tabled, in any frame the page got, on MQTT or in the log.
    const hand2 = said();
    const during = [
      { scenario: allIn, from: { frames: 0, mqtt: 0, logs: 0 }, to: hand1 },
      { scenario: inOrder, from: hand1, to: hand2 },
    ];
    for (const { scenario, from, to } of during) {
      const expected = replayEvents({ seats: 9, profile: scenario.profile }, scenario.events).map(
        publicOutput,
      );
      expect(stillSecret(holeCards(scenario.events, expected), Number.POSITIVE_INFINITY)).toHaveLength(2);
      const messages = frames
        .slice(from.frames, to.frames)
        .map((payload) => ({ topic: 'display', payload: Buffer.from(payload), retain: false }));
      const mqtt = live.messages.slice(from.mqtt, to.mqtt);
      expect(mqtt.length).toBeGreaterThan(10);
      expect(
        leakedSecrets(scenario, expected, [...messages, ...mqtt], live.logs.slice(from.logs, to.logs)),
      ).toEqual([]);
    }
    expect(frames.join('\n')).not.toMatch(/Three eights|Brelan/);
  });
});
