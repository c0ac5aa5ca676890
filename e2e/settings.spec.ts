import { copyFileSync, mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, waitForFinalNav } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { CHAT_MODEL, IMAGE_MODEL } from './support/fake-stack.js';
import { layoutProblems, setTheme, VIEWPORTS } from './support/layout.js';

const chat = (model: string) => JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] });

/** The e2e screenshot, also copied to /tmp/shots for review. */
async function shot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  mkdirSync('/tmp/shots', { recursive: true });
  copyFileSync(path, `/tmp/shots/${name}.png`);
}

/** Whether keyboard focus is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(
    `Boolean(document.activeElement && document.activeElement.closest('[role="dialog"]'))`,
  ) as Promise<boolean>;

describe('Settings page and the playground extras', () => {
  const session = useConsoleSession({ signInPath: '/ui/settings', failurePrefix: 'settings' });

  it('tests a provider with a real request and shows the result', async () => {
    const { page } = session;
    const row = page.getByRole('row', { name: 'fake' });
    // An upstream reports "ready" to the gateway whatever its URL: until something reached it, it is not tested.
    expect(await row.getByTestId('provider-state').textContent()).toBe('not tested');
    await row.getByRole('button', { name: 'Test fake' }).click();
    const result = row.getByTestId('provider-check');
    await result.waitFor();
    expect(await result.textContent()).toContain('Connected');
    expect(await row.getByTestId('provider-state').textContent()).toBe('ready');
    expect(session.stack.upstream.requests.at(-1)?.path).toContain('/embeddings');

    // The gateway keeps the last test: a reload still shows it.
    await page.reload();
    await waitForFinalNav(page);
    await row.getByTestId('provider-check').waitFor();
    expect(await row.getByTestId('provider-check').textContent()).toContain('Connected');
    expect(await row.getByTestId('provider-state').textContent()).toBe('ready');
  });

  it('Status tells an upstream by its kind and shows its real health: tested, then failing, then ready again', async () => {
    const { page, stack } = session;
    const status = (await (await session.api('/status', stack.gateway.adminKey)).json()) as {
      providers: { id: string; kind: string; last_test?: { ok: boolean } }[];
    };
    expect(status.providers.find((p) => p.id === 'fake')).toMatchObject({ kind: 'upstream', last_test: { ok: true } });
    expect(status.providers.filter((p) => p.id !== 'fake').map((p) => p.kind)).not.toContain('upstream');

    await page.getByRole('link', { name: /Status/ }).click();
    const row = page.getByTestId('providers-table').getByRole('row', { name: 'fake' });
    await row
      .getByTestId('provider-state')
      .filter({ hasText: /^ready$/ })
      .waitFor();
    expect(await row.textContent()).toContain('tested ·');

    stack.upstream.setBehaviour({
      failure: { type: 'status', status: 500, body: { error: { message: 'upstream down', type: 'server_error' } } },
      times: 10,
    });
    try {
      expect(
        (await session.api('/v1/chat/completions', stack.gateway.adminKey, { method: 'POST', body: chat(CHAT_MODEL) }))
          .status,
      ).toBeGreaterThanOrEqual(500);
    } finally {
      stack.upstream.setBehaviour(null);
    }
    // /status is polled: wait for the state, no sleep.
    await row
      .getByTestId('provider-state')
      .filter({ hasText: /^failing$/ })
      .waitFor({ timeout: 15_000 });
    await shot(page, 'status-upstream-failing');
    expect(
      (await session.api('/v1/chat/completions', stack.gateway.adminKey, { method: 'POST', body: chat(CHAT_MODEL) }))
        .status,
    ).toBe(200);
    await row
      .getByTestId('provider-state')
      .filter({ hasText: /^ready$/ })
      .waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: /Settings/ }).click();
  });

  it("adds a provider on the fake upstream with the keyboard only, tests it, shows a wrong URL's error, edits and removes it", async () => {
    const { page, stack } = session;
    const settings = async () =>
      (await session.api('/settings', stack.gateway.adminKey)).json() as Promise<{
        providers: { id: string; has_api_key: boolean; base_url?: string }[];
      }>;

    await page.getByRole('button', { name: '+ Add provider' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a provider' });
    await dialog.waitFor();
    expect(
      await page.evaluate(
        `document.activeElement && document.activeElement.closest('label') && document.activeElement.closest('label').textContent`,
      ),
    ).toContain('Provider id');
    await page.keyboard.type('e2e-upstream');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(stack.upstream.url);
    await page.keyboard.press('Tab');
    await page.keyboard.type('sk-upstream');
    await page.keyboard.press('Tab');
    await page.keyboard.type('fake-chat');
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page)).toBe(true);
    }
    expect(await dialog.getByTestId('breaker-note').textContent()).toContain('the defaults');
    await shot(page, 'settings-add-provider');
    await dialog.getByLabel('Test model').focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: 'e2e-upstream' });
    await row.getByText('added here').waitFor();
    // Saving tests the new upstream at once.
    await row.getByTestId('provider-state').getByText('ready', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('key set');
    expect(await row.textContent()).not.toContain('sk-upstream');
    expect((await settings()).providers.find((p) => p.id === 'e2e-upstream')).toMatchObject({
      has_api_key: true,
      base_url: stack.upstream.url,
    });

    await row.getByRole('button', { name: 'Test e2e-upstream' }).focus();
    await page.keyboard.press('Enter');
    await row
      .getByTestId('provider-check')
      .getByText(/Connected/)
      .waitFor();
    expect(stack.upstream.requests.at(-1)).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: 'fake-chat' },
    });

    await row.getByRole('button', { name: 'Edit e2e-upstream' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider e2e-upstream' });
    expect(await edit.getByLabel('API key').getAttribute('placeholder')).toContain('leave empty to keep it');
    await edit.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await edit.getByRole('button', { name: 'Save provider' }).click();
    await edit.waitFor({ state: 'detached' });
    expect((await settings()).providers.find((p) => p.id === 'e2e-upstream')).toMatchObject({
      has_api_key: true,
      base_url: 'http://127.0.0.1:9/v1',
    });
    // A wrong URL shows as unreachable without pressing Test (it used to say "ready").
    await row.getByTestId('provider-state').getByText('unreachable').waitFor();
    await shot(page, 'settings-provider-unreachable');
    await row.getByRole('button', { name: 'Test e2e-upstream' }).click();
    const failed = row.getByTestId('provider-check');
    await failed.getByText(/Failed/).waitFor();
    expect((await failed.textContent())!.length).toBeGreaterThan('Failed · chat on fake-chat · 0 ms'.length);
    expect(await layoutProblems(page)).toEqual([]);
    await shot(page, 'settings-provider-error');

    await row.getByRole('button', { name: 'Remove e2e-upstream' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Remove provider e2e-upstream?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Remove e2e-upstream' }).click();
    await confirm.getByRole('button', { name: 'Remove provider' }).focus();
    await page.keyboard.press('Enter');
    await row.waitFor({ state: 'detached' });
    expect((await settings()).providers.some((p) => p.id === 'e2e-upstream')).toBe(false);
  });

  it('changes CORS origins without a restart, says the value is set here, and shows the data folder', async () => {
    const { page, stack } = session;
    const origin = 'https://app.example';
    const allowed = async () =>
      (await session.api('/models', stack.gateway.adminKey, { headers: { Origin: origin } })).headers.get(
        'access-control-allow-origin',
      );
    expect(await allowed()).toBeNull();
    const server = page.getByRole('region', { name: 'Server' });
    expect(await server.getByTestId('data-dir').textContent()).toBe(stack.gateway.dataDir);
    expect(await server.getByTestId('source-cors_origins').textContent()).toBe('config file');
    await server.getByLabel('CORS origins').fill(origin);
    await server.getByRole('button', { name: 'Save server settings' }).click();
    await server.getByText('Saved · applied without a restart').waitFor();
    expect(await server.getByTestId('source-cors_origins').textContent()).toBe('set here');
    expect(await allowed()).toBe(origin);
    await server.scrollIntoViewIfNeeded();
    await shot(page, 'settings-server');

    await server.getByRole('button', { name: "Use the config file's cors origins" }).click();
    await server.getByTestId('source-cors_origins').getByText('config file').waitFor();
    expect(await allowed()).toBeNull();
  });

  it('adds a route from the console that serves requests at once, then deletes it after a confirmation', async () => {
    const { page } = session;
    const key = session.stack.gateway.adminKey;
    expect(
      (await session.api('/v1/chat/completions', key, { method: 'POST', body: chat('console-route') })).status,
    ).toBe(404);

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
    await page
      .getByRole('dialog', { name: 'Delete route console-route?' })
      .getByRole('button', { name: 'Delete route' })
      .click();
    await row.waitFor({ state: 'detached' });
    expect(
      (await session.api('/v1/chat/completions', key, { method: 'POST', body: chat('console-route') })).status,
    ).toBe(404);
    expect(await page.getByRole('row', { name: CHAT_MODEL }).textContent()).toContain('config file');
    // The gateway's own engines are not the config file's, though one is present.
    expect(await page.getByRole('row', { name: 'local-ocr' }).textContent()).toContain('built-in');
    expect(await page.getByRole('row', { name: 'local-ocr' }).textContent()).not.toContain('config file');
  });

  it('fits at 1440 and 1024 px, light and dark, with every action reachable', async () => {
    const { page } = session;
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.getByTestId('routes-table').waitFor();
        expect(await layoutProblems(page)).toEqual([]);
        await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
        await shot(page, `settings-${viewport.width}-${theme}`);
        await page.getByRole('region', { name: 'Server' }).scrollIntoViewIfNeeded();
        expect(await layoutProblems(page)).toEqual([]);
        await shot(page, `settings-${viewport.width}-${theme}-server`);
        await page.getByRole('button', { name: '+ Add provider' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add a provider' });
        await dialog.waitFor();
        expect(await layoutProblems(page)).toEqual([]);
        for (const name of ['Cancel', 'Add provider'])
          expect(await dialog.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
        await shot(page, `settings-dialog-${viewport.width}-${theme}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
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
    await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      body: chat(CHAT_MODEL),
    });
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

  it('a request logged without its body points to Settings, where capturing bodies is turned on', async () => {
    const { page } = session;
    const logged = async () => {
      const response = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
        method: 'POST',
        body: chat(CHAT_MODEL),
      });
      expect(response.status).toBe(200);
      return response.headers.get('x-request-id') ?? '';
    };
    const openRow = async (id: string) => {
      await page.getByRole('link', { name: /Request log/ }).click();
      const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
      // The live log may not have polled the new request yet: open the newest row until it is this one.
      for (let attempt = 0; attempt < 20; attempt++) {
        await page
          .getByTestId('request-log')
          .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
          .first()
          .click();
        await drawer.waitFor();
        if ((await drawer.textContent())?.includes(id)) return drawer;
        if (attempt === 19) break;
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'detached' });
        await page.waitForTimeout(250);
      }
      throw new Error(`The request ${id} never appeared in the log; the newest row was: ${await drawer.textContent()}`);
    };
    const drawer = await openRow(await logged());
    await drawer.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/ui\/settings/);
    const server = page.getByRole('region', { name: 'Server' });
    await server.getByLabel('Capture request and response bodies (keys redacted, 4 KiB each)').check();
    await server.getByRole('button', { name: 'Save server settings' }).click();
    await server.getByText('Saved · applied without a restart').waitFor();
    const captured = await openRow(await logged());
    expect(await captured.getByTestId('request-body').textContent()).toContain('hello');
    await page.keyboard.press('Escape');
  });

  it('Status shows the engine queues and draws the traffic chart axes in the theme colours, at a readable size', async () => {
    const { page } = session;
    await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      body: chat(CHAT_MODEL),
    });
    for (const theme of ['dark', 'light'] as const) {
      await setTheme(page, theme);
      await page.getByRole('link', { name: /Status/ }).click();
      const tick = page.getByTestId('traffic-chart').locator('text').first();
      await tick.waitFor();
      const style = (await page.evaluate(
        `(() => { const el = document.querySelector('[data-testid="traffic-chart"] text'); const s = getComputedStyle(el); return { fill: s.fill, size: parseFloat(s.fontSize) * el.getScreenCTM().a }; })()`,
      )) as { fill: string; size: number };
      // The unstyled default was black text drawn at about 28 px: unreadable on the dark theme and oversized on both.
      expect(style.fill).not.toBe('rgb(0, 0, 0)');
      expect(style.size).toBeLessThan(18);
      // The OCR workers' queue, read from /metrics.
      const ocrQueue = page
        .getByRole('region', { name: 'Engine queues' })
        .getByRole('row', { name: 'local-ocr ocr_workers' });
      await ocrQueue.waitFor();
      expect((await ocrQueue.locator('td').allTextContents()).slice(2).every((n) => /^\d+$/.test(n))).toBe(true);
      expect(await layoutProblems(page)).toEqual([]);
      await page.getByTestId('traffic-chart').scrollIntoViewIfNeeded();
      await shot(page, `status-traffic-${theme}`);
    }
  });

  it('at 1024 px keeps the Chat header on one row and the Status cards in one row, light and dark', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.getByRole('link', { name: /Chat/ }).click();
        const actions = page.getByRole('group', { name: 'Conversation actions' });
        await actions.getByRole('button', { name: 'Delete' }).waitFor();
        const title = (await page.locator('.page-header .page-title').boundingBox())!;
        const header = (await page.locator('.page-header').boundingBox())!;
        // Wrapped, the Rename/Export/Delete buttons made a second row under the title.
        expect(header.height).toBeLessThanOrEqual(title.height + 1);
        for (const name of ['+ New chat', 'Rename', 'Export', 'Delete']) {
          const box = (await actions.getByRole('button', { name }).boundingBox())!;
          expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height + 1);
        }
        expect(await layoutProblems(page)).toEqual([]);
        await shot(page, `chat-header-1024-${theme}`);

        await page.getByRole('link', { name: /Status/ }).click();
        const cards = page.getByRole('region', { name: 'Gateway' }).locator('.stat-card');
        await page.getByTestId('capability-checks').waitFor();
        const tops = await Promise.all([0, 1, 2].map(async (i) => (await cards.nth(i).boundingBox())!.y));
        expect(new Set(tops).size).toBe(1);
        expect(await layoutProblems(page)).toEqual([]);
        await shot(page, `status-cards-1024-${theme}`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("loads a page's code on its first visit only, not every page's at sign-in", async () => {
    const { page, stack } = session;
    const scripts: string[] = [];
    const onRequest = (request: { url(): string; resourceType(): string }) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    };
    page.on('request', onRequest);
    try {
      await page.goto(`${stack.gateway.url}/ui/status`);
      await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor();
      expect(scripts.some((path) => /status-page-[\w-]+\.js$/.test(path))).toBe(true);
      expect(scripts.filter((path) => /(chat|ocr|settings|account)-page-[\w-]+\.js$/.test(path))).toEqual([]);
      await page.getByRole('link', { name: /OCR/ }).click();
      await page.getByRole('heading', { level: 1, name: 'OCR' }).waitFor();
      expect(scripts.some((path) => /ocr-page-[\w-]+\.js$/.test(path))).toBe(true);
    } finally {
      page.off('request', onRequest);
    }
  });
});
