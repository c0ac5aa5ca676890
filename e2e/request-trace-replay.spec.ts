import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { CHAT_MODEL } from './support/fake-stack.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

const SMALL_MODEL = 'svc-small-3-2512';
const MEDIUM_MODEL = 'svc-medium-3-2512';

/** The trace id of a W3C traceparent header (`00-<trace id>-<span id>-<flags>`). */
const traceIdOf = (traceparent: string | null) => traceparent?.split('-')[1] ?? '';

describe('request timeline, replay and compare', () => {
  const session = useConsoleSession({
    models: [
      {
        id: SMALL_MODEL,
        provider: 'fake',
        upstream_model: 'fake-small',
        capabilities: ['chat'],
        pricing: { input_per_million: 1, output_per_million: 2 },
      },
      {
        id: MEDIUM_MODEL,
        provider: 'fake',
        upstream_model: 'fake-medium',
        capabilities: ['chat'],
        pricing: { input_per_million: 3, output_per_million: 6 },
      },
    ],
    config: { server: { request_log_bodies: true } },
    signInPath: '/ui/requests',
    failurePrefix: 'trace-replay-failed',
  });

  /** A streamed chat sent by a client (not the console), with its request id and answer headers. */
  async function streamedChat(id: string, content: string): Promise<Response> {
    const response = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      headers: { 'X-Request-Id': id },
      body: JSON.stringify({
        model: CHAT_MODEL,
        messages: [{ role: 'user', content }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.status).toBe(200);
    await response.text();
    return response;
  }

  /** Closes what a failed test left open, so the next one starts on the list. */
  const closeDialogs = async () => {
    for (let open = await session.page.getByRole('dialog').count(); open > 0; open--) {
      await session.page.keyboard.press('Escape');
    }
    await session.page.getByRole('dialog').first().waitFor({ state: 'detached' });
  };

  const openRow = async (id: string) => {
    const { page } = session;
    await closeDialogs();
    // The row's accessible name is its method, path and status; the request id is in the drawer.
    const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    for (const row of await page
      .getByTestId('request-log')
      .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
      .all()) {
      await row.click();
      await drawer.waitFor();
      if ((await drawer.textContent())?.includes(id)) return drawer;
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
    throw new Error(`no row of the request log opens ${id}`);
  };

  // Depends on the gateway recording spans (issue 34, part 1): without them the drawer says there is no timeline.
  it('shows the waterfall of a streamed request with a retry: the failed attempt with its error, then the first token', async () => {
    const { page } = session;
    session.stack.upstream.setBehaviour({
      failure: { type: 'status', status: 503 },
      times: 1,
      path: '/v1/chat/completions',
    });
    const response = await streamedChat('req_e2e_retried', 'tell me about retries');
    const traceId = traceIdOf(response.headers.get('traceparent'));
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    await page
      .getByTestId('request-log')
      .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
      .first()
      .waitFor();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const drawer = await openRow('req_e2e_retried');
      const waterfall = drawer.getByTestId('waterfall');
      await waterfall.waitFor();
      const bars = waterfall.getByRole('list', { name: 'Spans of the request' }).getByRole('button');
      expect(await bars.count()).toBeGreaterThanOrEqual(4);
      expect(await bars.first().getAttribute('aria-label')).toMatch(/^POST \/v1\/chat\/completions, starts at 0 ms/);
      // The failed attempt says why on its bar, and the retry after it answered.
      expect((await waterfall.getByTestId('span-error').allTextContents()).join(' ')).toMatch(/503/);
      expect(await waterfall.textContent()).toMatch(/first token: \d/);
      // A bar opens its attributes from the keyboard.
      const firstFailed = waterfall.locator('li.waterfall-row-failed > button').first();
      await firstFailed.focus();
      await page.keyboard.press('Enter');
      expect(await firstFailed.getAttribute('aria-expanded')).toBe('true');
      await drawer.getByTestId('span-details').first().waitFor();
      expect(await drawer.getByText(traceId).count()).toBeGreaterThan(0);
      await screenshot(page, `request-waterfall-retry-${viewport.width}`);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }

    // The list finds the request by its trace id.
    await page.getByLabel('Filter by trace id').fill(traceId);
    const rows = page.getByTestId('request-log').getByRole('row', { name: /POST \/v1\/chat\/completions/ });
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByLabel('Filter by trace id').fill('');
  });

  it('replays a streamed request to another model, with its answer, latency, first token, tokens and cost', async () => {
    const { page } = session;
    await streamedChat('req_e2e_replayed', 'replay me please');
    await page
      .getByTestId('request-log')
      .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
      .first()
      .waitFor();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const drawer = await openRow('req_e2e_replayed');
      const panel = drawer.getByRole('region', { name: 'Replay' });
      await panel
        .getByLabel('Model to replay with')
        .getByRole('option', { name: SMALL_MODEL })
        .waitFor({ state: 'attached' });
      await panel.getByLabel('Model to replay with').selectOption(SMALL_MODEL);
      await panel.getByRole('button', { name: 'Replay' }).click();
      const result = panel.getByRole('article', { name: `Answer of ${SMALL_MODEL}` });
      await result.waitFor();
      expect(await result.getByTestId('replay-answer').textContent()).toBe('replay me please');
      const stats = (await result.locator('.replay-stats').textContent()) ?? '';
      expect(stats).toMatch(/Latency\d/);
      expect(stats).toMatch(/First token\d/);
      expect(stats).toMatch(/Tokens in \/ out\d+ \/ \d+/);
      expect(stats).not.toMatch(/Cost—/);
      // The fake upstream was asked for the other model, streamed.
      const sent = session.stack.upstream.requests.at(-1)!;
      expect(sent.body).toMatchObject({ model: 'fake-small', stream: true });
      await result.scrollIntoViewIfNeeded();
      await screenshot(page, `request-replay-${viewport.width}`);

      // The replay is a request of its own in the log, tagged so.
      await result.getByRole('button', { name: 'Open this request in the log' }).click();
      await drawer.getByText(SMALL_MODEL).first().waitFor();
      await drawer.locator('.badge', { hasText: /^replay$/ }).waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
      expect(await layoutProblems(page)).toEqual([]);
    }
    await page
      .getByTestId('request-log')
      .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
      .filter({ hasText: SMALL_MODEL })
      .first()
      .waitFor();
  });

  it('compares the request on three models side by side', async () => {
    const { page } = session;
    await streamedChat('req_e2e_compared', 'compare us');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const drawer = await openRow('req_e2e_compared');
      await drawer.getByRole('button', { name: 'Compare models…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Compare models' });
      await dialog.getByRole('checkbox', { name: SMALL_MODEL }).check();
      await dialog.getByRole('checkbox', { name: MEDIUM_MODEL }).check();
      await dialog.getByRole('button', { name: 'Send to 3 models' }).click();
      const results = dialog.getByTestId('replay-result');
      await expect.poll(() => results.count()).toBe(3);
      expect(await dialog.getByTestId('replay-answer').allTextContents()).toEqual([
        'compare us',
        'compare us',
        'compare us',
      ]);
      // Side by side: one row of three columns.
      const tops = await Promise.all((await results.all()).map(async (result) => (await result.boundingBox())?.y));
      expect(new Set(tops).size).toBe(1);
      await screenshot(page, `request-compare-${viewport.width}`);
      // Escape closes the comparison first, then the drawer.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await drawer.isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
  });

  it('keeps the timeline of a quick success among the newest 100, and says why an older one has none', async () => {
    const { page } = session;
    await closeDialogs();
    const plainChat = async (id: string) => {
      const response = await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
        method: 'POST',
        headers: { 'X-Request-Id': id },
        body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'quick' }] }),
      });
      expect(response.status).toBe(200);
      await response.text();
      return traceIdOf(response.headers.get('traceparent'));
    };
    const oldest = await plainChat('req_e2e_quick_oldest');
    for (let i = 0; i < 100; i++) await plainChat(`req_e2e_quick_${i}`);
    const newest = await plainChat('req_e2e_quick_newest');
    const traceFilter = page.getByRole('searchbox', { name: 'Filter by trace id' });
    const row = page.getByTestId('request-log').getByRole('row', { name: /POST \/v1\/chat\/completions 200/ });
    const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await traceFilter.fill(newest);
      await row.first().click();
      await drawer.getByTestId('waterfall').waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });

      await traceFilter.fill(oldest);
      await row.first().click();
      const empty = drawer.getByTestId('waterfall-empty');
      expect(await empty.textContent()).toMatch(/newest 100/);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, `request-no-timeline-${viewport.width}`);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
    await traceFilter.fill('');
  });

  it('sorts the list by latency from its header, and says when a body was not kept', async () => {
    const { page } = session;
    await closeDialogs();
    await page.setViewportSize({ width: 1440, height: 900 });
    const latency = page.getByTestId('request-log').getByRole('columnheader', { name: /Latency/ });
    await latency.getByRole('button').click();
    expect(await latency.getAttribute('aria-sort')).toBe('descending');
    await page.getByTestId('order-note').waitFor();
    const figures = await page.getByTestId('request-log').locator('tbody tr td:nth-child(5)').allTextContents();
    const values = figures.map((text) => Number.parseInt(text, 10));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    await screenshot(page, 'request-log-slowest-first-1440');
    await latency.getByRole('button').click();
    expect(await latency.getAttribute('aria-sort')).toBe('none');

    // A request whose body the log did not keep (an upload) cannot be replayed, and the drawer says why.
    const form = new FormData();
    form.set('purpose', 'user_data');
    form.set('file', new Blob(['notes'], { type: 'text/plain' }), 'notes.txt');
    const upload = await fetch(`${session.stack.gateway.url}/v1/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.stack.gateway.adminKey}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const row = page.getByTestId('request-log').getByRole('row', { name: /POST \/v1\/files 200/ });
    await row.first().click();
    const drawer = page.getByRole('dialog', { name: 'POST /v1/files' });
    expect(await drawer.getByTestId('replay-unavailable').textContent()).toMatch(/uploaded a file/);
    expect(await drawer.getByRole('button', { name: 'Replay' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
  });
});
