import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';

/** Debian's `chromium` (`.ci/run` installs it when missing); the browser tests are skipped without it. */
export const CHROMIUM = process.env.JP_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const noChromium = hasChromium ? '' : ` (skipped: no ${CHROMIUM}; install Debian's chromium package, as .ci/run does)`;

/**
 * A headless Chromium of its own: a fresh profile directory, no sandbox (CI runs as root), and
 * none of the background traffic a browser makes at start (updates, sync, QUIC probing), so a
 * request seen by a test is one the page made.
 */
export async function launchChromium(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const { default: puppeteer } = await import('puppeteer-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'jp-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
