import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cspViolations, screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

/** A name with no space to break at, as long as the gateway takes. */
const LONG_NAME = `ci-${'pipeline_'.repeat(13)}end`;

/** Starts recording the page's long tasks (main-thread work over 50 ms); `longestTask` reads the longest. */
async function recordLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  })()`);
}
const longestTask = (page: Page) => page.evaluate('Math.max(0, ...window.__longTasks)') as Promise<number>;

describe('long values and huge texts', () => {
  const session = useConsoleSession({ signInPath: '/ui/keys', failurePrefix: 'failed-long' });

  it('a long unbroken key name is cut in the Keys table, whole on hover, and every action stays on screen', async () => {
    const created = await session.api('/account/keys', session.stack.gateway.adminKey, {
      method: 'POST',
      body: JSON.stringify({ name: LONG_NAME, role: 'member' }),
    });
    expect(created.status).toBe(201);
    const page = session.page;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.reload();
      const row = page.getByRole('row', { name: LONG_NAME });
      await row.waitFor();
      const name = row.getByTitle(LONG_NAME);
      expect(await name.textContent()).toBe(LONG_NAME);
      expect((await name.boundingBox())?.width ?? Infinity).toBeLessThan(400);
      const revoke = row.getByRole('button', { name: `Revoke ${LONG_NAME}` });
      expect(((await revoke.boundingBox())?.x ?? Infinity) + 10).toBeLessThan(viewport.width);
      expect(await layoutProblems(page), `at ${viewport.width} px`).toEqual([]);
      await screenshot(page, `keys-long-name-${viewport.width}`);
    }
  });

  it('a long model name in the request log stays in its column', async () => {
    await session.api('/v1/chat/completions', session.stack.gateway.adminKey, {
      method: 'POST',
      body: JSON.stringify({ model: LONG_NAME, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const page = session.page;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto(`${session.stack.gateway.url}/ui/requests`);
      const model = page.getByTestId('request-log').getByTitle(LONG_NAME).first();
      await model.waitFor();
      expect((await model.boundingBox())?.width ?? Infinity).toBeLessThan(260);
      // The model filter lists it too, and a select is as wide as its longest option.
      const filter = page.locator('select', { has: page.locator('option', { hasText: 'Any model' }) });
      expect((await filter.boundingBox())?.width ?? Infinity).toBeLessThan(300);
      expect(await layoutProblems(page), `at ${viewport.width} px`).toEqual([]);
      await screenshot(page, `requests-long-model-${viewport.width}`);
    }
  });

  it('a 200,000-character message without spaces does not freeze the chat page', async () => {
    const page = session.page;
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${session.stack.gateway.url}/ui/chat`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    // The fake model echoes it back: the same text as the answer, markdown and all.
    const message = 'a_'.repeat(100_000);
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    const started = Date.now();
    await page.keyboard.press('Enter');
    const answer = page.getByRole('article', { name: 'Assistant' }).last();
    await answer.getByLabel('Answer statistics').waitFor({ timeout: 30_000 });
    // The page answers at once: a round trip through its event loop.
    const roundTrip = Date.now();
    await page.evaluate('1');
    expect(Date.now() - roundTrip).toBeLessThan(500);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await answer.getByRole('button', { name: 'Show all 200,000 characters' }).count()).toBe(1);
    expect(
      await page
        .getByRole('article', { name: 'You' })
        .last()
        .getByRole('button', { name: 'Show all 200,000 characters' })
        .count(),
    ).toBe(1);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'chat-huge-message-1440');
    await page.setViewportSize(VIEWPORTS[1]);
    await screenshot(page, 'chat-huge-message-1024');
  });

  it('formats a long answer in the markdown worker, under the page policy, without a long task', async () => {
    const page = session.page;
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${session.stack.gateway.url}/ui/chat`);
    await page.getByRole('button', { name: '+ New chat' }).click();
    // 19,000 characters of emphasis delimiters: half a second of markdown parsing, under the plain-text limit.
    const message = `**start** ${'a_'.repeat(9_500)}`;
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await recordLongTasks(page);
    await page.keyboard.press('Enter');
    const answer = page.getByRole('article', { name: 'Assistant' }).last();
    await answer.locator('.markdown strong').waitFor({ timeout: 30_000 });
    expect(await answer.locator('.markdown strong').first().textContent()).toBe('start');
    expect(await longestTask(page)).toBeLessThan(250);
    expect(cspViolations(page)).toEqual([]);
  });
});
