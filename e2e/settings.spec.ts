import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { CHAT_MODEL, IMAGE_MODEL } from './support/fake-stack.js';
import { layoutProblems, setTheme, VIEWPORTS } from './support/layout.js';

const chat = (model: string) => JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] });

describe('Settings page and the playground extras', () => {
  const session = useConsoleSession({ signInPath: '/ui/settings', failurePrefix: 'settings' });

  it('tests a provider with a real request and shows the result', async () => {
    const { page } = session;
    const row = page.getByRole('row', { name: 'fake' });
    await row.getByRole('button', { name: 'Test fake' }).click();
    const result = row.getByTestId('provider-check');
    await result.waitFor();
    expect(await result.textContent()).toContain('Connected');
    expect(session.stack.upstream.requests.at(-1)?.path).toContain('/embeddings');
  });

  it('adds a route from the console that serves requests at once, then deletes it after a confirmation', async () => {
    const { page } = session;
    const key = session.stack.gateway.adminKey;
    expect((await session.api('/v1/chat/completions', key, { method: 'POST', body: chat('console-route') })).status).toBe(404);

    await page.getByRole('button', { name: '+ Add route' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a model route' });
    await dialog.getByLabel('Model id').fill('console-route');
    await dialog.getByLabel('Upstream model').fill('fake-chat');
    await dialog.getByLabel('Aliases').fill('cr');
    await screenshot(page, 'settings-add-route');
    await dialog.getByRole('button', { name: 'Add route' }).click();
    const row = page.getByRole('row', { name: 'console-route' });
    await row.getByText('added here').waitFor();
    expect((await session.api('/v1/chat/completions', key, { method: 'POST', body: chat('cr') })).status).toBe(200);

    await row.getByRole('button', { name: 'Delete console-route' }).click();
    await page.getByRole('dialog', { name: 'Delete route console-route?' }).getByRole('button', { name: 'Delete route' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await session.api('/v1/chat/completions', key, { method: 'POST', body: chat('console-route') })).status).toBe(404);
    expect(await page.getByRole('row', { name: CHAT_MODEL }).textContent()).toContain('config file');
  });

  it('fits at 1440 and 1024 px, light and dark, with every action reachable', async () => {
    const { page } = session;
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.getByTestId('routes-table').waitFor();
        expect(await layoutProblems(page)).toEqual([]);
        await screenshot(page, `settings-${viewport.width}-${theme}`);
      }
    }
    await setTheme(page, 'light');
  });

  it('Images shows the exact generate request as code', async () => {
    const { page } = session;
    await page.getByRole('link', { name: /Images/ }).click();
    await page.getByLabel('Prompt').first().fill('a red bicycle');
    await page.getByRole('button', { name: '</> View code' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'View code' });
    const snippet = dialog.getByTestId('code-snippet');
    expect(await snippet.textContent()).toContain('/v1/vision/generate');
    expect(await snippet.textContent()).toContain('a red bicycle');
    expect(await snippet.textContent()).toContain(IMAGE_MODEL);
    await dialog.getByRole('tab', { name: 'Python' }).click();
    expect(await snippet.textContent()).toContain('requests.post(');
    await screenshot(page, 'images-view-code');
    await page.keyboard.press('Escape');
  });

  it('Account draws the usage chart with a tooltip on hover', async () => {
    const { page } = session;
    await session.api('/v1/chat/completions', session.stack.gateway.adminKey, { method: 'POST', body: chat(CHAT_MODEL) });
    await page.getByRole('link', { name: /Account/ }).click();
    const chart = page.getByTestId('usage-chart');
    await chart.locator('canvas').waitFor();
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(400);
    await page.mouse.move(box!.x + box!.width - 40, box!.y + box!.height / 2);
    await chart.getByRole('status').waitFor();
    expect(await chart.getByRole('status').textContent()).toMatch(/\d{4}-\d{2}-\d{2}/);
    await screenshot(page, 'account-chart-tooltip');
  });
});
