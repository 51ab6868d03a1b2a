/**
 * A real headless Chromium for the console's tests: Debian's `chromium` driven by
 * playwright-core (no browser download: `executablePath` points at the system's), with a fresh
 * profile per test, and every console message of level error and every uncaught page error
 * collected, so that a test can say a page made none.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env['PLATFORM_CHROMIUM'] ?? '/usr/bin/chromium';

/** Where tests write their screenshots (gitignored; CI keeps the folder): test/screenshots. */
export const SCREENSHOTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'screenshots');

/** Flags that work here as root and keep the browser off the network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Chromium, or undefined (the test skips) when it is missing and CI does not require it. */
export function chromiumOrSkip(t: ExecutionContext): string | undefined {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1') throw new Error(`chromium is required at ${CHROMIUM}: apt-get install chromium`);
  t.log(`chromium is not installed at ${CHROMIUM} (apt-get install chromium): the browser test is skipped`);
  return undefined;
}

export interface TestBrowser {
  browser: Browser;
  /** A new browser context (its own cookies and storage) with a page whose errors are collected. */
  page(o?: { width?: number; height?: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** test/screenshots/<name>.png: the whole page, or (`fullPage` false) what the window shows. */
  screenshot(page: Page, name: string, o?: { fullPage?: boolean }): Promise<string>;
}

export async function launchBrowser(t: ExecutionContext, executablePath: string): Promise<TestBrowser> {
  // Playwright gives each launch a fresh --user-data-dir of its own (a temporary directory it
  // removes at close; it refuses the flag in `args`).
  const browser = await chromium.launch({ executablePath, headless: true, args: FLAGS, timeout: 60_000 });
  t.teardown(async () => {
    await browser.close().catch(() => undefined);
  });
  return {
    browser,
    async page(o = {}) {
      const context = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 900 }, acceptDownloads: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
      });
      page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
      return { context, page, errors };
    },
    async screenshot(page, name, o = {}) {
      await mkdir(SCREENSHOTS_DIR, { recursive: true });
      const file = join(SCREENSHOTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: o.fullPage ?? true });
      return file;
    },
  };
}
