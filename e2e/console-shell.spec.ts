import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

describe('console shell', () => {
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startGateway();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  it('refuses a wrong key with the gateway message, then signs in and shows status and key prefix', async () => {
    const page = await newConsolePage(browser);
    await page.goto(`${gateway.url}/`);
    await page.getByLabel('API key').fill('sk-sy-not-a-real-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('HTTP 401');
    await screenshot(page, 'login-refused');

    await page.getByLabel('API key').fill(gateway.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const prefix = await page.getByTestId('key-prefix').textContent();
    expect(prefix).toContain(gateway.adminKey.slice(0, 8));
    expect(prefix).not.toContain(gateway.adminKey);
    await page.getByTestId('gateway-status').filter({ hasText: 'Gateway ok' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/chat');
    // The page's own chunk loads after the shell: wait for it rather than photograph the spinner.
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await screenshot(page, 'shell-chat');
    // No chat model yet: the notice sends an Owner to Settings, which adds one without a restart.
    await page.getByTestId('no-backend-settings').getByRole('link', { name: 'Settings page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/settings');
    await page.context().close();
  });

  it('navigates every page from the sidebar without a blank page, and remembers the theme', async () => {
    const page = await newConsolePage(browser);
    await signIn(page, gateway.url, gateway.adminKey);
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const names = await links.allTextContents();
    expect(names.map((n) => n.replace(/^\W+/u, '').trim())).toEqual(
      expect.arrayContaining([
        'Chat',
        'Completions',
        'Embeddings',
        'OCR',
        'Documents',
        'Images',
        'Transcription',
        'Request log',
      ]),
    );
    for (let i = 0; i < names.length; i++) {
      await links.nth(i).click();
      const heading = page.getByRole('heading', { level: 1 });
      await heading.waitFor();
      expect((await heading.textContent())?.length).toBeGreaterThan(0);
    }
    // /metrics needs the Owner key: the console reads it with the key it signed in with.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Metrics/ })
      .click();
    const metrics = page.getByTestId('metrics-text');
    await metrics.waitFor();
    expect(await metrics.textContent()).toContain('# TYPE ');
    await screenshot(page, 'metrics');

    await page.getByRole('link', { name: /Request log/ }).click();
    // Only the console has called this gateway: its own calls are hidden until asked for.
    await page.getByText('No requests yet').waitFor();
    await page.getByLabel(/Show the console's own requests/).check();
    await page.getByTestId('request-log').waitFor();
    await screenshot(page, 'request-log');

    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    const theme = await page.locator('html').getAttribute('data-theme');
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe(theme);
    await page.getByRole('link', { name: /Images/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Images' }).waitFor();
    await screenshot(page, `images-no-backend-${theme}`);
    await page.context().close();
  });
});
