import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { startFakeStack, type FakeStack } from './support/fake-stack.js';

describe('the console and the docs under their Content-Security-Policy', () => {
  let stack: FakeStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startFakeStack();
    browser = await launchChromium();
    page = await newConsolePage(browser);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `failed-csp-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('serves /ui/ with a strict policy, and every page works under it without a violation', async () => {
    const response = await page.goto(`${stack.gateway.url}/ui/`);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');

    await signIn(page, stack.gateway.url, stack.gateway.adminKey);
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const count = await links.count();
    for (let i = 0; i < count; i++) {
      await links.nth(i).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
    }

    // Generated images are gateway files fetched with the key and shown through object URLs.
    await page.getByRole('link', { name: /Images/ }).click();
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse at dusk');
    await page.getByLabel('Size').selectOption('256x256');
    await page.getByRole('button', { name: 'Generate' }).click();
    // Polled from outside the page: the console's CSP (no eval) refuses waitForFunction's predicate.
    await expect.poll(() => page.evaluate(`(() => {
      const img = document.querySelector('[data-testid="generated-image"] img');
      return !!img && img.complete && img.naturalWidth > 0;
    })()`), { timeout: 30_000 }).toBe(true);
    expect(cspViolations(page)).toEqual([]);
  });

  it('an inline script injected into the console is refused by the policy', async () => {
    await page.goto(`${stack.gateway.url}/ui/chat`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const ran = await page.evaluate(`(() => {
      window.__injected = false;
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.appendChild(script);
      return window.__injected;
    })()`);
    expect(ran).toBe(false);
    expect(cspViolations(page).some((text) => /script/i.test(text))).toBe(true);
    cspViolations(page).length = 0;
  });

  it('the API docs render under their own policy', async () => {
    const response = await page.goto(`${stack.gateway.url}/docs/`);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(cspViolations(page)).toEqual([]);
  });
});
