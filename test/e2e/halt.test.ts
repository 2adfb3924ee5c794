import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf, startLiveTable } from '../integration/live-table.js';
import { journalNight } from '../night-journal.js';
import { TAMPERINGS } from '../tamperings.js';
import { SCREEN, screenshot, useChromium } from './browser.js';

/*
 * A broken journal record on the dealer display, in a real Chromium: the table is covered by the halt,
 * which names the record; the supervisor signs in on the screen's keypad, sees the last hands marked
 * with the broken record, and clears the halt, signed; the screen then starts over and play goes on.
 */

const AT = 40;
const PIN = '2468';

const browser = useChromium();

describe('the display of a halted table', () => {
  it('covers the table naming the broken record; a supervisor reviews the hands it touches and clears it', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-halt-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'journal.db');
    await journalNight(path);
    TAMPERINGS[0]?.apply(path, AT);

    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      {
        display: { language: 'en' },
        journal: { path, verifyEveryMs: 1000 },
        supervisors: [{ name: 'Marie Floor', pin: await hashSecret(PIN) }],
      },
    );
    const page = await browser().newPage(SCREEN);
    undo.push(() => page.close());
    await page.goto(live.controller.httpUrl);
    const halt = page.getByTestId('halt');
    await halt.waitFor();
    await expect
      .poll(() => page.getByTestId('halt-detail').textContent())
      .toMatch(
        new RegExp(`record ${AT} \\(seq \\d+, kind \\w+\\) is broken: its hash does not match its content`),
      );
    expect(await halt.locator('h1').textContent()).toBe('Table stopped: the journal is at fault');
    await screenshot(page, 'journal-halt');
    await page.getByTestId('lang-fr').tap();
    expect(await halt.locator('h1').textContent()).toBe('Table arrêtée : le journal est en défaut');
    await page.getByTestId('lang-en').tap();

    // The bar stays above the halt: the supervisor signs in there.
    await page.getByTestId('supervisor').tap();
    for (const digit of PIN) await page.getByTestId(`pad-${digit}`).tap();
    await page.getByTestId('pad-enter').tap();
    await page.getByTestId('clear-halt').waitFor();
    expect(await page.getByTestId('decide-continue').count()).toBe(0);

    await page.getByTestId('recent-hands').tap();
    await page.getByTestId('recent-list').waitFor();
    const marked = page.locator('[data-testid^="recent-"][data-chain="broken"]');
    await expect.poll(() => marked.count()).toBeGreaterThan(0);
    expect(await marked.first().textContent()).toContain(`broken record #${AT}`);
    expect(
      await page.locator('[data-testid^="recent-"][data-chain="broken"]', { hasText: 'no incident' }).count(),
    ).toBe(0);
    await page.getByTestId('recent-back').tap();

    await page.getByTestId('clear-halt').tap();
    await expect.poll(() => page.getByTestId('floor-note').textContent()).toContain('Checking the journal');
    await halt.waitFor({ state: 'detached' });
    await expect.poll(() => live.controller.health.report().status).not.toBe('halted');
    // Signed in still, the supervisor now has the floor's decisions again.
    await page.getByTestId('decide-continue').waitFor();
  });
});
