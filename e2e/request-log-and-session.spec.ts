import { describe, expect, it } from 'vitest';
import { newConsolePage, screenshot, signIn } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { CHAT_MODEL } from './support/fake-stack.js';
import { layoutProblems, settledAfter, setTheme, VIEWPORTS } from './support/layout.js';

const FREE_FORM_SECRET = 'my-very-own-upstream-password';

describe('request log, layout and sessions', () => {
  const session = useConsoleSession({ config: { server: { request_log_bodies: true } }, signInPath: '/ui/requests' });

  it("opens a logged request in a drawer by keyboard, with secrets redacted, and keeps the console's own calls out of view", async () => {
    const chat = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      body: JSON.stringify({
        model: CHAT_MODEL,
        messages: [{ role: 'user', content: 'Hello from the log' }],
        password: FREE_FORM_SECRET,
      }),
    });
    expect(chat.status).toBe(200);
    const failed = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      body: JSON.stringify({ model: 'no-such-model', messages: [] }),
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const failure = (await failed.json()) as { code: string; message: string };

    const log = session.page.getByTestId('request-log');
    const chatRow = log.getByRole('row', { name: /POST \/v1\/chat\/completions 200/ });
    await chatRow.waitFor();
    // The console's own polling is hidden by default and can be shown.
    expect(await log.textContent()).not.toContain('/account/me');
    await session.page.getByLabel(/Show the console's own requests/).check();
    await log.getByText('/account/me').first().waitFor();
    await session.page.getByLabel(/Show the console's own requests/).uncheck();

    // A failed request names the model it asked for, and says why it failed under its status, the whole reason in the drawer.
    await session.page.getByLabel('Filter by status').selectOption('4xx');
    expect(await log.textContent()).toContain('no-such-model');
    const failedRow = log.getByRole('row', { name: new RegExp(`POST /v1/chat/completions ${failed.status}`) });
    expect(await failedRow.locator('.text-danger').getAttribute('title')).toBe(`${failure.code}: ${failure.message}`);
    await session.page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(session.page, 'request-log-failure-1440');
    await failedRow.click();
    const failedDrawer = session.page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    expect(await failedDrawer.getByTestId('request-failure').textContent()).toBe(`${failure.code}: ${failure.message}`);
    await screenshot(session.page, 'request-log-failure-drawer-1440');
    await session.page.keyboard.press('Escape');
    await failedDrawer.waitFor({ state: 'detached' });
    await session.page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(session.page, 'request-log-failure-1024');
    await session.page.setViewportSize({ width: 1280, height: 860 });
    await session.page.getByLabel('Filter by status').selectOption('');

    await chatRow.focus();
    await session.page.keyboard.press('Enter');
    const drawer = session.page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    await drawer.waitFor();
    const body = await drawer.getByTestId('request-body').textContent();
    expect(body).toContain('Hello from the log');
    expect(body).toContain('[redacted]');
    expect(await drawer.textContent()).not.toContain(FREE_FORM_SECRET);
    expect(await drawer.textContent()).not.toContain(session.stack.gateway.adminKey);
    expect(await drawer.textContent()).toContain(chat.headers.get('x-request-id'));
    await screenshot(session.page, 'request-log-drawer');

    // Keyboard focus stays in the drawer.
    for (let i = 0; i < 12; i++) {
      await session.page.keyboard.press('Tab');
      expect(await session.page.evaluate(`!!document.activeElement?.closest('[role="dialog"]')`)).toBe(true);
    }
    await session.page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await session.page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toMatch(
      /POST \/v1\/chat\/completions/,
    );

    const download = session.page.waitForEvent('download');
    await session.page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await (await download).createReadStream();
    let text = '';
    for await (const chunk of csv) text += chunk.toString();
    expect(text.split('\r\n')[0]).toBe(
      'id,time,method,path,status,model,key_prefix,client,latency_ms,ttft_ms,prompt_tokens,completion_tokens,cost,error_code,error_message,trace_id',
    );
    expect(text).toContain('/v1/chat/completions');
    expect(text).not.toContain('/account/me');

    await chatRow.click();
    await drawer.getByRole('button', { name: 'Open in playground' }).click();
    await session.page.waitForURL(/\/ui\/chat/);
    await session.page.getByRole('article', { name: 'You' }).getByText('Hello from the log').waitFor();
  });

  it("lists what the user sent from a playground, tagged playground, while the console's own reads stay hidden", async () => {
    const { page } = session;
    await page.getByRole('button', { name: '+ New chat' }).click();
    await page.getByPlaceholder(/Send a message/).fill('Sent from the playground');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('link', { name: /Request log/ }).click();
    expect(await page.getByLabel(/Show the console's own requests/).isChecked()).toBe(false);
    // It used to be hidden with the console's polling: a new user's first chat was not in the log.
    const row = page
      .getByTestId('request-log')
      .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
      .filter({ hasText: 'playground' });
    await row.first().waitFor();
    await row.first().click();
    const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    expect(await drawer.getByTestId('request-body').textContent()).toContain('Sent from the playground');
    await screenshot(page, 'request-log-playground');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of VIEWPORTS) {
      it(`keeps every action of the manage pages on screen at ${viewport.width} px, ${theme}`, async () => {
        await session.page.setViewportSize(viewport);
        await setTheme(session.page, theme);
        for (const path of ['requests', 'keys', 'models', 'batches', 'account', 'status']) {
          const link = session.page.getByRole('link', {
            name: new RegExp(`^\\W*${path === 'requests' ? 'Request log' : path}$`, 'i'),
          });
          await settledAfter(session.page, () => link.click());
          await session.page.locator('main table, main .empty-state, main [role="alert"], main svg').first().waitFor();
          expect(await layoutProblems(session.page), `${path} at ${viewport.width} px ${theme}`).toEqual([]);
          await screenshot(session.page, `layout-${path}-${viewport.width}-${theme}`);
        }
      });
    }
  }

  it('shows the status page: gateway, providers with their state, and the traffic chart', async () => {
    await session.page.setViewportSize({ width: 1440, height: 900 });
    await session.page.getByRole('link', { name: /Status/ }).click();
    await session.page.getByTestId('providers-table').getByRole('row', { name: 'fake' }).waitFor();
    await session.page.getByTestId('traffic-chart').waitFor();
    expect(await session.page.title()).toBe('Status · Switchyard');
    await screenshot(session.page, 'status-page');
  });

  it('warns before revoking the key you are signed in with, then says why you were signed out', async () => {
    await session.page.setViewportSize({ width: 1280, height: 860 });
    const created = (await (
      await session.api('/account/keys', session.stack.gateway.adminKey, {
        method: 'POST',
        body: JSON.stringify({ name: 'Temporary owner', role: 'owner' }),
      })
    ).json()) as { key: string };
    const other = await newConsolePage(session.browser);
    try {
      await signIn(other, session.stack.gateway.url, created.key, '/ui/keys');
      await other.getByRole('button', { name: 'Revoke Temporary owner' }).click();
      const dialog = other.getByRole('dialog', { name: 'Revoke Temporary owner?' });
      await dialog.getByTestId('revoke-own-key-warning').waitFor();
      await screenshot(other, 'keys-revoke-own-key');
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await other.getByTestId('sign-out-reason').waitFor();
      expect(await other.getByTestId('sign-out-reason').textContent()).toMatch(/You revoked Temporary owner/);
      await screenshot(other, 'sign-in-after-revoking-own-key');
    } finally {
      await other.context().close();
    }
  });

  it('explains a sign-out caused by a key revoked elsewhere, and shows no chat of the previous key', async () => {
    const created = (await (
      await session.api('/account/keys', session.stack.gateway.adminKey, {
        method: 'POST',
        body: JSON.stringify({ name: 'Short lived' }),
      })
    ).json()) as { id: string; key: string };
    const other = await newConsolePage(session.browser);
    try {
      await signIn(other, session.stack.gateway.url, created.key, '/ui/chat');
      await other.getByRole('textbox', { name: 'Message' }).fill('A private question');
      await other.keyboard.press('Enter');
      await other.getByRole('article', { name: 'Assistant' }).waitFor();
      expect(
        (await session.api(`/account/keys/${created.id}`, session.stack.gateway.adminKey, { method: 'DELETE' })).status,
      ).toBe(200);
      // The next call the console makes (here: after a reload) meets the revoked key.
      await other.reload();
      await other.getByTestId('sign-out-reason').waitFor();
      expect(await other.getByTestId('sign-out-reason').textContent()).toMatch(/signed out.*revoked/i);

      await other.getByLabel('API key').fill(session.stack.gateway.adminKey);
      await other.getByRole('button', { name: 'Sign in' }).click();
      await other.getByRole('link', { name: /Chat/ }).click();
      await other.getByRole('textbox', { name: 'Message' }).waitFor();
      expect(await other.locator('main').textContent()).not.toContain('A private question');
    } finally {
      await other.context().close();
    }
  });
});
