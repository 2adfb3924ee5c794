import type { Page } from 'playwright-core';
import { filter, firstValueFrom, map } from 'rxjs';
import { describe, type ExpectStatic, it } from 'vitest';
import type { SourceEvent } from '../../src/controller/pipeline.js';
import { cleanupsOf, type LiveTable, startLiveTable } from '../integration/live-table.js';
import { SCREEN, screenshot, useChromium } from './browser.js';

/*
 * The seats between hands, in a real Chromium against the controller on the virtual table: the dealer
 * seats six players at a ten-seat table by touching the seats, starts the first hand, marks the big
 * blind out when the hand is over and seats newcomers; the screen shows the next hand's button and
 * blinds by main-event-2014's dead button before the dealer starts it, and the NEXT_HAND prompt after.
 */

const SEATS = 10;
const PLAYERS = [1, 2, 4, 6, 7, 9];
const NAMES: Record<number, string> = { 1: 'Ana', 4: 'Bruno Delacroix-Martin' };

const browser = useChromium();

/** Every button a finger can hit: at least 48 px each way, and on the screen. */
async function touchable(page: Page, expect: ExpectStatic): Promise<void> {
  for (const target of await page.locator('button, input').all()) {
    const box = await target.boundingBox();
    if (!box) continue;
    const name = (await target.textContent()) || (await target.getAttribute('data-testid')) || '';
    expect(Math.min(box.width, box.height), name).toBeGreaterThanOrEqual(48);
    expect(box.x + box.width, name).toBeLessThanOrEqual(1280);
    expect(box.y + box.height, name).toBeLessThanOrEqual(800);
  }
}

describe('seats between hands', () => {
  it('seats six players from the screen, starts the first hand, marks the big blind out and two newcomers waiting: the next hand is shown by the dead button, then prompted', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const live: LiveTable = await startLiveTable(
      { push: (step) => undo.push(step) },
      { table: { seats: SEATS }, display: { language: 'en' } },
    );
    const page = await browser().newPage(SCREEN);
    undo.push(() => page.close());
    page.setDefaultTimeout(15_000);
    await page.goto(live.controller.httpUrl);
    await page.getByTestId('connection').waitFor();
    const seat = (n: number) => page.getByTestId(`seat-${n}`);
    const text = (id: string) => page.getByTestId(id).textContent();
    const key = (event: SourceEvent) => live.controller.input(event);
    /** The hand the table starts on a `next-hand`: its NEXT_HAND prompt carries the hand's set-up. */
    const handStart = () =>
      firstValueFrom(
        live.controller.updates.pipe(
          map(({ outputs }) =>
            outputs.find((output) => output.kind === 'prompt' && output.prompt === 'NEXT_HAND'),
          ),
          filter((output) => output !== undefined),
        ),
      );

    // An empty table: ten seats to touch, and no next hand until two players are seated.
    await expect
      .poll(() => page.locator('button[data-testid^="seat-"][data-status="empty"]').count())
      .toBe(SEATS);
    expect(await page.getByTestId('next-hand').isDisabled()).toBe(true);
    expect(await text('next-none')).toContain('at least two players');
    expect(await text('level')).toBe('Blinds 50 / 100');

    // The dealer seats six players: a touch on the seat, a name for some, "Seated".
    for (const n of PLAYERS) {
      await seat(n).tap();
      await page.getByTestId('editor').waitFor();
      expect(await page.locator('#editor-title').textContent()).toBe(`Seat ${n}`);
      const name = NAMES[n];
      if (name) await page.getByTestId('editor-name').fill(name);
      if (n === 4) {
        // Over the table, which stays where it is: the device strip keeps its place at the foot.
        expect(await page.locator('footer.devices').boundingBox()).toEqual({
          x: 0,
          y: 748,
          width: 1280,
          height: 52,
        });
        await touchable(page, expect);
        await screenshot(page, 'seat-editor');
      }
      await page.getByTestId('editor-in').tap();
      await page.getByTestId('editor').waitFor({ state: 'detached' });
      await expect.poll(() => seat(n).getAttribute('data-status')).toBe('in');
      if (name) expect(await text(`seat-${n}-player`)).toBe(name);
    }
    const marked = (n: number, mark: 'button' | 'sb' | 'bb') => seat(n).getByTestId(`mark-${mark}`).count();
    // The first hand: the button on the lowest seat, the blinds after it.
    await expect.poll(() => text('next-button')).toBe('Button: seat 1');
    expect(await text('next-sb')).toBe('Small blind: seat 2');
    expect(await text('next-bb')).toBe('Big blind: seat 4');
    expect(await text('next-players')).toContain('6 players');
    expect([await marked(1, 'button'), await marked(2, 'sb'), await marked(4, 'bb')]).toEqual([1, 1, 1]);
    expect(await page.locator('[data-testid^="seat-"][data-plays="true"]').count()).toBe(PLAYERS.length);
    expect(await page.getByTestId('next-hand').isDisabled()).toBe(false);
    await touchable(page, expect);
    await screenshot(page, 'seating');

    // The first hand, from the screen: the prompt names the button and the blinds.
    const first = handStart();
    await page.getByTestId('next-hand').tap();
    expect(await first).toMatchObject({ button: 1, sb: 2, bb: 4, players: PLAYERS, blinds: [50, 100] });
    const prompt = page.getByTestId('prompt');
    await expect.poll(() => prompt.getAttribute('data-code')).toBe('NEXT_HAND');
    expect(await prompt.locator('strong').textContent()).toBe('Next hand: button and blinds');
    expect(await text('prompt-step-0')).toBe('The button on seat 1.');
    expect(await text('prompt-step-1')).toBe('Small blind (50): seat 2; big blind (100): seat 4.');
    // In the hand: the seats are no longer touch targets, the names stay, the editor cannot open.
    expect(await page.getByTestId('next-hand').count()).toBe(0);
    expect(await page.locator('button[data-testid^="seat-"]').count()).toBe(0);
    expect(await text('seat-4-player')).toBe(NAMES[4]);
    await screenshot(page, 'next-hand-prompt');

    // The hand is over; the big blind busted: the dealer marks seat 4 out.
    key({ type: 'dealer', t: Date.now(), input: 'hand-end' });
    await expect.poll(() => page.getByTestId('prompt').count()).toBe(0);
    await seat(4).tap();
    expect(await page.getByTestId('editor-in').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('editor-name').inputValue()).toBe(NAMES[4]);
    await page.getByTestId('editor-out').tap();
    await expect.poll(() => seat(4).getAttribute('data-status')).toBe('out');
    // Dead button (§II.i): the button on the last small blind, no small blind, the big blind moves on.
    await expect.poll(() => text('next-button')).toBe('Button: seat 2');
    expect(await text('next-sb')).toBe('No small blind');
    expect(await text('next-bb')).toBe('Big blind: seat 6');
    expect(await page.getByTestId('mark-sb').count()).toBe(0);
    expect([await marked(2, 'button'), await marked(6, 'bb')]).toEqual([1, 1]);
    expect(await text('next-players')).toContain('main-event-2014 §II.i');

    // Newcomers: seat 3, between the button and the dead small blind, waits; seat 8 comes in.
    await seat(3).tap();
    await page.getByTestId('editor-name').fill('Zoé');
    // Another screen marks seat 5 meanwhile: the state that follows leaves what is typed.
    key({ type: 'seat', t: Date.now(), seat: 5, status: 'out' });
    await expect.poll(() => seat(5).getAttribute('data-status')).toBe('out');
    expect(await page.getByTestId('editor-name').inputValue()).toBe('Zoé');
    await page.getByTestId('editor-waiting').tap();
    await seat(8).tap();
    await page.getByTestId('editor-waiting').tap();
    await expect.poll(() => seat(8).getAttribute('data-status')).toBe('waiting');
    await expect.poll(() => seat(3).getAttribute('data-status')).toBe('waiting');
    expect(await seat(3).getAttribute('data-plays')).toBe('false');
    expect(await seat(3).textContent()).toContain('Zoé');
    expect(await seat(3).locator('.seat-status').textContent()).toBe('Waiting');
    await expect.poll(() => seat(8).getAttribute('data-plays')).toBe('true');
    expect(await seat(8).locator('.seat-status').textContent()).toBe('Comes in');
    expect(await text('next-button')).toBe('Button: seat 2');
    expect(await text('next-sb')).toBe('No small blind');
    expect(await text('next-bb')).toBe('Big blind: seat 6');
    expect(await text('next-players')).toContain('6 players');
    // The same in French.
    await page.getByTestId('lang-fr').tap();
    await expect.poll(() => text('next-sb')).toBe('Pas de petite blinde');
    expect(await text('next-bb')).toBe('Grosse blinde : place 6');
    expect(await seat(3).locator('.seat-status').textContent()).toBe('En attente');
    await page.getByTestId('lang-en').tap();
    await touchable(page, expect);
    await screenshot(page, 'seating-dead-button');

    const second = handStart();
    await page.getByTestId('next-hand').tap();
    expect(await second).toMatchObject({ button: 2, sb: null, bb: 6, players: [1, 2, 6, 7, 8, 9] });
    await expect.poll(() => page.getByTestId('prompt').getAttribute('data-code')).toBe('NEXT_HAND');
    expect(await text('prompt-step-0')).toBe('The button on seat 2.');
    expect(await text('prompt-step-1')).toBe('No small blind; big blind (100): seat 6.');

    // A touch croupier refuses says why: the editor open, a hand started from elsewhere meanwhile.
    key({ type: 'dealer', t: Date.now(), input: 'hand-end' });
    await seat(7).tap();
    await page.route('**/api/seat', async (route) => {
      const started = handStart();
      key({ type: 'dealer', t: Date.now(), input: 'next-hand' });
      await started;
      await route.continue();
    });
    await page.getByTestId('editor-absent').tap();
    await expect.poll(() => page.getByTestId('notice').textContent()).toBe('Refused: a hand is in play');
    expect(await page.getByTestId('editor').count()).toBe(0);
  });
});
