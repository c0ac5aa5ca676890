import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from './gateway.js';

export const SCREENSHOT_DIR = join(REPO_ROOT, 'e2e', 'screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const violations = new WeakMap<Page, string[]>();

/** Content-Security-Policy violations Chromium reported on `page` (also written to stderr as they happen). */
export function cspViolations(page: Page): string[] {
  return violations.get(page) ?? [];
}

export async function newConsolePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const seen: string[] = [];
  violations.set(page, seen);
  page.on('console', (message) => {
    if (!/Content Security Policy/i.test(message.text())) return;
    seen.push(message.text());
    process.stderr.write(`CSP violation on ${page.url()}: ${message.text()}\n`);
  });
  return page;
}

/** Signs in through the login screen and waits for the shell. */
export async function signIn(page: Page, gatewayUrl: string, apiKey: string, path = '/ui/chat'): Promise<void> {
  await page.goto(`${gatewayUrl}${path}`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await waitForFinalNav(page);
}

/** The navigation once the key's role is known (until then it is aria-busy, with placeholders for Owner-only links). */
export async function waitForFinalNav(page: Page): Promise<void> {
  await page.locator('nav[aria-label="Main"][aria-busy="false"]').waitFor();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
