import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { requireSocat } from '../integration/pty.js';

const CHROMIUM = '/usr/bin/chromium';
/** Chromium's start takes over vitest's 10 s for a hook when the suite loads both cores. */
const LAUNCH_MS = 60_000;

/** A touch screen the size of the table's. */
export const SCREEN = { viewport: { width: 1280, height: 800 }, hasTouch: true };

/**
 * Debian's Chromium, headless, for one test file: launched before its tests, closed after them. The
 * display tests also need socat for the virtual table's devices; neither is ever a silent skip.
 */
export function useChromium(): () => Browser {
  requireSocat('the display tests');
  let browser: Browser | undefined;
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
  }, LAUNCH_MS);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running');
    return browser;
  };
}

/** The README's pictures of the display, taken from the run itself. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: fileURLToPath(new URL(`../../docs/screenshots/${name}.png`, import.meta.url)),
  });
}

/** The dealer display at `url` on a new touch screen, keeping every WebSocket frame it receives. */
export async function openDisplay(browser: Browser, url: string): Promise<{ page: Page; frames: string[] }> {
  const page = await browser.newPage(SCREEN);
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
  await page.goto(url);
  await page.getByTestId('connection').waitFor();
  return { page, frames };
}
