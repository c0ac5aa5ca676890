import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { CHAT_MODEL, startFakeStack, type FakeStack } from './support/fake-stack.js';

const FINE_TUNED = 'ft:svc-large-3-2512:acme:7e77';

describe('keys, account and models pages', () => {
  let stack: FakeStack;
  let browser: Browser;
  let page: Page;

  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${stack.gateway.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers } });

  beforeAll(async () => {
    stack = await startFakeStack([{ id: FINE_TUNED, provider: 'fake', upstream_model: 'fake-chat-ft', capabilities: ['chat'] }]);
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, stack.gateway.url, stack.gateway.adminKey, '/ui/keys');
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `failed-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('creates a key, shows it once, and a revoked key is refused', async () => {
    await page.getByRole('link', { name: /Keys/ }).click();
    await page.getByRole('button', { name: '+ Create key' }).click();
    const form = page.getByRole('dialog', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('CI pipeline');
    await form.getByLabel('Requests per minute').fill('120');
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('you will not see it again').waitFor();
    const key = await shown.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^sk-sy-/);
    expect((await api('/v1/models', key)).status).toBe(200);
    await screenshot(page, 'keys-created');
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row', { name: 'CI pipeline' });
    expect(await row.textContent()).toContain('member');
    expect(await row.textContent()).toContain('120');
    expect(await row.textContent()).toContain(key.slice(0, 8));
    expect(await page.getByRole('table').textContent()).not.toContain(key);

    await row.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('dialog', { name: 'Revoke CI pipeline?' }).getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('revoked').waitFor();
    expect((await api('/v1/models', key)).status).toBe(401);
    await screenshot(page, 'keys-revoked');
  });

  it('refuses to revoke the last Owner key with the gateway message', async () => {
    const admin = page.getByRole('row', { name: /admin|bootstrap|owner/i }).filter({ hasText: 'this key' });
    await admin.getByRole('button', { name: /^Revoke/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Revoke/ });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('409');
    await screenshot(page, 'keys-last-owner');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api('/v1/models', stack.gateway.adminKey)).status).toBe(200);
  });

  it('tells a Member that keys need the Owner role', async () => {
    const created = (await (await api('/account/keys', stack.gateway.adminKey, { method: 'POST', body: JSON.stringify({ name: 'Reader', role: 'member' }) })).json()) as { key: string };
    const memberPage = await newConsolePage(browser);
    try {
      await signIn(memberPage, stack.gateway.url, created.key, '/ui/keys');
      await memberPage.getByText('Owner role required').waitFor();
      expect(await memberPage.getByRole('button', { name: '+ Create key' }).count()).toBe(0);
      await screenshot(memberPage, 'keys-member');
    } finally {
      await memberPage.context().close();
    }
  });

  it('shows the requests made in the usage table and chart', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await api('/v1/chat/completions', stack.gateway.adminKey, { method: 'POST', body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: `hello ${i}` }] }) });
      expect(answer.status).toBe(200);
    }
    await page.getByRole('link', { name: /Account/ }).click();
    const table = page.getByTestId('usage-by-model');
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: CHAT_MODEL });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('3');
    const today = new Date().toISOString().slice(0, 10);
    expect(Number(await page.locator(`[data-testid="usage-bar"][data-day="${today}"]`).getAttribute('data-value'))).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'account');
  });

  it('lets an Owner set the balance', async () => {
    await page.getByRole('region', { name: 'Balance' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel(/^Balance \(/).fill('42.5');
    await page.getByLabel(/^Spending limit/).fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('balance-amount').filter({ hasText: '42.5' }).waitFor();
    await page.getByText(/Spending limit 10\.0/).waitFor();
    const me = (await (await api('/account/me', stack.gateway.adminKey)).json()) as { balance: { amount: number; limit?: number } };
    expect(me.balance).toMatchObject({ amount: 42.5, limit: 10 });
  });

  it('archives and unarchives a fine-tuned model, and filters by capability', async () => {
    await page.getByRole('link', { name: /Models/ }).click();
    const row = page.getByRole('row', { name: FINE_TUNED });
    await row.getByRole('button', { name: `Archive ${FINE_TUNED}`, exact: true }).click();
    await row.getByText('archived', { exact: true }).waitFor();
    const archived = (await (await api(`/v1/models/${encodeURIComponent(FINE_TUNED)}`, stack.gateway.adminKey)).json()) as { archived: boolean };
    expect(archived.archived).toBe(true);
    await screenshot(page, 'models-archived');

    await row.getByRole('button', { name: `Unarchive ${FINE_TUNED}`, exact: true }).click();
    await row.getByRole('button', { name: `Archive ${FINE_TUNED}`, exact: true }).waitFor();
    expect(await row.getByText('archived', { exact: true }).count()).toBe(0);
    const restored = (await (await api(`/v1/models/${encodeURIComponent(FINE_TUNED)}`, stack.gateway.adminKey)).json()) as { archived: boolean };
    expect(restored.archived).toBe(false);

    await page.getByLabel('Capability').selectOption('ocr');
    const rows = page.getByTestId('models-table').locator('tbody tr');
    await page.getByRole('row', { name: FINE_TUNED }).waitFor({ state: 'detached' });
    for (const text of await rows.allTextContents()) expect(text).toContain('ocr');
    await page.getByLabel('Capability').selectOption('all');
    await screenshot(page, 'models');
  });

  it('fits a 1024 px window without a page-wide horizontal scroll', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      for (const [link, name] of [[/Keys/, 'keys-1024'], [/Account/, 'account-1024'], [/Models/, 'models-1024'], [/Batches/, 'batches-1024'], [/Agents/, 'agents-1024']] as const) {
        await page.getByRole('link', { name: link }).click();
        await page.locator('.page h1').waitFor();
        await page.locator('.card').first().waitFor();
        expect(await page.evaluate(`(() => { const m = document.querySelector('.main'); return m.scrollWidth - m.clientWidth; })()`), name).toBeLessThanOrEqual(0);
        await screenshot(page, name);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
