import { describe, expect, it } from 'vitest';
import { newConsolePage, screenshot, signIn, waitForFinalNav } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { CHAT_MODEL } from './support/fake-stack.js';

const FINE_TUNED = 'ft:svc-large-3-2512:acme:7e77';

describe('keys, account and models pages', () => {
  const session = useConsoleSession({
    models: [{ id: FINE_TUNED, provider: 'fake', upstream_model: 'fake-chat-ft', capabilities: ['chat'] }],
    signInPath: '/ui/keys',
  });

  it('creates a key, shows it once, and a revoked key is refused', async () => {
    await session.page.getByRole('link', { name: /Keys/ }).click();
    await session.page.getByRole('button', { name: '+ Create key' }).click();
    const form = session.page.getByRole('dialog', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('CI pipeline');
    await form.getByLabel('Requests per minute').fill('120');
    await form.getByRole('button', { name: 'Create key' }).click();

    const shown = session.page.getByRole('dialog', { name: 'Your new API key' });
    await shown.getByText('you will not see it again').waitFor();
    const key = await shown.getByLabel('New API key').inputValue();
    expect(key).toMatch(/^sk-sy-/);
    expect((await session.api('/v1/models', key)).status).toBe(200);
    await screenshot(session.page, 'keys-created');
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const row = session.page.getByRole('row', { name: 'CI pipeline' });
    expect(await row.textContent()).toContain('member');
    expect(await row.textContent()).toContain('120');
    expect(await row.textContent()).toContain(key.slice(0, 8));
    expect(await session.page.getByRole('table').textContent()).not.toContain(key);

    await row.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await session.page
      .getByRole('dialog', { name: 'Revoke CI pipeline?' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await row.getByText('revoked').waitFor();
    expect((await session.api('/v1/models', key)).status).toBe(401);
    await screenshot(session.page, 'keys-revoked');
  });

  it('refuses to revoke the last Owner key with the gateway message', async () => {
    const admin = session.page.getByRole('row', { name: /admin|bootstrap|owner/i }).filter({ hasText: 'this key' });
    await admin.getByRole('button', { name: /^Revoke/ }).click();
    const dialog = session.page.getByRole('dialog', { name: /^Revoke/ });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('409');
    await screenshot(session.page, 'keys-last-owner');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await session.api('/v1/models', session.stack.gateway.adminKey)).status).toBe(200);
  });

  it('tells a Member that keys need the Owner role', async () => {
    const created = (await (
      await session.api('/account/keys', session.stack.gateway.adminKey, {
        method: 'POST',
        body: JSON.stringify({ name: 'Reader', role: 'member' }),
      })
    ).json()) as { key: string };
    const memberPage = await newConsolePage(session.browser);
    try {
      // Records every Owner-only link the navigation ever shows, from the first render on.
      await memberPage.addInitScript(`
        window.__ownerLinksSeen = [];
        new MutationObserver(() => {
          for (const link of document.querySelectorAll('nav[aria-label="Main"] a[href$="/keys"], nav[aria-label="Main"] a[href$="/settings"], nav[aria-label="Main"] a[href$="/requests"]')) window.__ownerLinksSeen.push(link.getAttribute('href'));
        }).observe(document, { childList: true, subtree: true });
      `);
      await signIn(memberPage, session.stack.gateway.url, created.key, '/ui/keys');
      await memberPage.getByText('Owner role required').waitFor();
      expect(await memberPage.getByRole('button', { name: '+ Create key' }).count()).toBe(0);
      expect(await memberPage.title()).toBe('Keys · Switchyard');
      // The navigation offers a Member only the pages a Member key may use.
      const nav = memberPage.getByRole('navigation', { name: 'Main' });
      // signIn waited for the final nav (the role known): no placeholders left, and no Owner-only link was ever shown.
      expect(await nav.getByTestId('nav-placeholder').count()).toBe(0);
      expect(await memberPage.evaluate('window.__ownerLinksSeen')).toEqual([]);
      // Nor on a reload, where the nav renders before the account answers.
      await memberPage.reload();
      await waitForFinalNav(memberPage);
      expect(await memberPage.evaluate('window.__ownerLinksSeen')).toEqual([]);
      expect(await nav.getByRole('link', { name: /Status/ }).count()).toBe(1);
      expect(await nav.getByRole('link', { name: /Keys/ }).count()).toBe(0);
      const names = (await nav.getByRole('link').allTextContents()).map((n) => n.replace(/^\W+/u, '').trim());
      expect(names).not.toContain('Request log');
      expect(names).not.toContain('Settings');
      expect(names).toEqual(expect.arrayContaining(['Chat', 'Account', 'Status', 'Models']));
      await screenshot(memberPage, 'keys-member');
    } finally {
      await memberPage.context().close();
    }
  });

  it('shows the requests made in the usage table and chart', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
        method: 'POST',
        body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: `hello ${i}` }] }),
      });
      expect(answer.status).toBe(200);
    }
    await session.page.getByRole('link', { name: /Account/ }).click();
    const table = session.page.getByTestId('usage-by-model');
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: CHAT_MODEL });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('3');
    const today = new Date().toISOString().slice(0, 10);
    expect(
      Number(await session.page.locator(`[data-testid="usage-bar"][data-day="${today}"]`).getAttribute('data-value')),
    ).toBeGreaterThanOrEqual(3);
    await screenshot(session.page, 'account');
  });

  it('lets an Owner set the balance', async () => {
    await session.page.getByRole('region', { name: 'Balance' }).getByRole('button', { name: 'Edit' }).click();
    await session.page.getByLabel(/^Balance \(/).fill('42.5');
    await session.page.getByLabel(/^Spending limit/).fill('10');
    await session.page.getByRole('button', { name: 'Save' }).click();
    await session.page.getByTestId('balance-amount').filter({ hasText: '42.5' }).waitFor();
    await session.page.getByText(/Spending limit 10\.0/).waitFor();
    const me = (await (await session.api('/account/me', session.stack.gateway.adminKey)).json()) as {
      balance: { amount: number; limit?: number };
    };
    expect(me.balance).toMatchObject({ amount: 42.5, limit: 10 });
  });

  it('archives and unarchives a fine-tuned model, and filters by capability', async () => {
    await session.page.getByRole('link', { name: /Models/ }).click();
    const row = session.page.getByRole('row', { name: FINE_TUNED });
    await row.getByRole('button', { name: `Archive ${FINE_TUNED}`, exact: true }).click();
    await row.getByText('archived', { exact: true }).waitFor();
    const archived = (await (
      await session.api(`/v1/models/${encodeURIComponent(FINE_TUNED)}`, session.stack.gateway.adminKey)
    ).json()) as { archived: boolean };
    expect(archived.archived).toBe(true);
    await screenshot(session.page, 'models-archived');

    await row.getByRole('button', { name: `Unarchive ${FINE_TUNED}`, exact: true }).click();
    await row.getByRole('button', { name: `Archive ${FINE_TUNED}`, exact: true }).waitFor();
    expect(await row.getByText('archived', { exact: true }).count()).toBe(0);
    const restored = (await (
      await session.api(`/v1/models/${encodeURIComponent(FINE_TUNED)}`, session.stack.gateway.adminKey)
    ).json()) as { archived: boolean };
    expect(restored.archived).toBe(false);

    await session.page.getByLabel('Capability').selectOption('ocr');
    const rows = session.page.getByTestId('models-table').locator('tbody tr');
    await session.page.getByRole('row', { name: FINE_TUNED }).waitFor({ state: 'detached' });
    for (const text of await rows.allTextContents()) expect(text).toContain('ocr');
    await session.page.getByLabel('Capability').selectOption('all');
    await screenshot(session.page, 'models');
  });

  it('fits a 1024 px window without a page-wide horizontal scroll', async () => {
    await session.page.setViewportSize({ width: 1024, height: 768 });
    try {
      for (const [link, name] of [
        [/Keys/, 'keys-1024'],
        [/Account/, 'account-1024'],
        [/Models/, 'models-1024'],
        [/Batches/, 'batches-1024'],
        [/Agents/, 'agents-1024'],
      ] as const) {
        await session.page.getByRole('link', { name: link }).click();
        await session.page.locator('.page h1').waitFor();
        await session.page.locator('.card').first().waitFor();
        expect(
          await session.page.evaluate(
            `(() => { const m = document.querySelector('.main'); return m.scrollWidth - m.clientWidth; })()`,
          ),
          name,
        ).toBeLessThanOrEqual(0);
        await screenshot(session.page, name);
      }
    } finally {
      await session.page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
