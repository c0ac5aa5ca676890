import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

const SMALL = 'eval-small';
const LARGE = 'eval-large';
/** Two priced routes on the fake upstream (which echoes the user's message), so cost and latency have figures. */
const EVAL_MODELS = [
  {
    id: SMALL,
    provider: 'fake',
    upstream_model: 'fake-chat',
    capabilities: ['chat'],
    pricing: { input_per_million: 1000, output_per_million: 2000 },
  },
  {
    id: LARGE,
    provider: 'fake',
    upstream_model: 'fake-chat',
    capabilities: ['chat'],
    pricing: { input_per_million: 4000, output_per_million: 8000 },
  },
];

/** Screenshots at 1440 and 1024 px with `part` in view, after checking that nothing is out of reach. */
async function shootAtBothSizes(page: Page, part: Locator, name: string): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await part.scrollIntoViewIfNeeded();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, `${name}-${viewport.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 860 });
}

describe('the Evals page', () => {
  const session = useConsoleSession({
    models: EVAL_MODELS,
    config: { server: { request_log_bodies: true } },
    signInPath: '/ui/evals',
    failurePrefix: 'failed-evals',
  });

  it('builds an eval from the request log, runs it on two models, and compares it with a run after a prompt change', async () => {
    const { page } = session;
    const key = session.stack.gateway.adminKey;
    // Three logged chats: two answered whole (their answers become the references), one streamed (the log keeps no streamed answer).
    for (const question of ['Paris is the capital', 'two plus <b>two</b>']) {
      const answer = await session.api('/v1/chat/completions', key, {
        method: 'POST',
        body: JSON.stringify({ model: SMALL, messages: [{ role: 'user', content: question }] }),
      });
      expect(answer.status).toBe(200);
    }
    const streamed = await session.api('/v1/chat/completions', key, {
      method: 'POST',
      body: JSON.stringify({ model: SMALL, stream: true, messages: [{ role: 'user', content: 'a streamed one' }] }),
    });
    expect(streamed.status).toBe(200);
    await streamed.text();

    await page.getByRole('link', { name: 'Evals' }).click();
    const form = page.getByRole('form', { name: 'New eval' });
    await form.getByLabel('Name', { exact: true }).fill('echo answers');
    await form.getByRole('tab', { name: 'From the request log' }).click();
    const log = form.getByTestId('eval-log-entries');
    await expect.poll(() => log.getByRole('checkbox').count(), { timeout: 15_000 }).toBe(3);
    for (const box of await log.getByRole('checkbox').all()) await box.check();
    await form.getByRole('button', { name: 'Use 3 selected' }).click();
    await form.getByTestId('dataset-summary').filter({ hasText: '3 rows' }).waitFor();
    expect(await form.getByTestId('dataset-summary').textContent()).toContain('{{item.expected}}');
    expect(await form.getByTestId('log-notes').textContent()).toContain('streamed');

    const models = form.getByRole('group', { name: 'Models to evaluate' });
    for (const box of await models.getByRole('checkbox').all()) await box.uncheck();
    await models.getByRole('checkbox', { name: SMALL }).check();
    await models.getByRole('checkbox', { name: LARGE }).check();
    expect(await models.getByRole('note').textContent()).toMatch(
      /one model per run: running on 2 models starts 2 runs/,
    );
    await screenshot(page, 'evals-new-from-log');
    await form.getByRole('button', { name: 'Create and run on 2 models' }).click();

    const runs = page.getByTestId('eval-runs');
    await expect
      .poll(async () => (await runs.getByTestId('run-status').allTextContents()).join(','), { timeout: 30_000 })
      .toBe('completed,completed');
    expect(await runs.getByTestId('run-progress').allTextContents()).toEqual(['3 / 3 graded', '3 / 3 graded']);
    const charts = page.getByTestId('eval-charts');
    expect(await charts.getByRole('figure', { name: 'Pass rate' }).textContent()).toMatch(
      new RegExp(`${SMALL}.*66\\.7 %.*|${LARGE}.*66\\.7 %`),
    );
    expect(await charts.getByRole('figure', { name: "Cost (the model's requests)" }).textContent()).toMatch(
      /0\.\d+ USD/,
    );
    expect(await charts.getByRole('figure', { name: 'Mean latency per request' }).textContent()).toMatch(/\d+ ms/);
    // The streamed chat had no reference: its row fails on both models and comes first, outputs side by side.
    const items = page.getByTestId('eval-items');
    const first = items.locator('tbody tr').first();
    expect(await first.textContent()).toContain('a streamed one');
    expect(await first.locator('.badge-error').count()).toBe(2);
    expect(await items.locator('tbody tr').nth(1).locator('.badge-ok').count()).toBe(2);
    // Outputs and items are text, never HTML.
    expect(await items.textContent()).toContain('two plus <b>two</b>');
    expect(await items.locator('b').count()).toBe(0);
    await shootAtBothSizes(page, page.getByRole('region', { name: 'Results' }), 'evals-results');

    // Change the prompt and run again on one model: the echo no longer equals the reference.
    await page.getByRole('button', { name: '+ New run' }).click();
    const newRun = page.getByRole('form', { name: 'New run' });
    await newRun.getByLabel('User message template').fill('Answer: {{item.input}}');
    const runModels = newRun.getByRole('group', { name: 'Models to evaluate' });
    for (const box of await runModels.getByRole('checkbox').all()) await box.uncheck();
    await runModels.getByRole('checkbox', { name: SMALL }).check();
    await newRun.getByLabel('Run label (optional)').fill('v2');
    await newRun.getByRole('button', { name: 'Run on 1 model' }).click();
    await newRun.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await runs.getByTestId('run-status').allTextContents()).join(','), { timeout: 30_000 })
      .toBe('completed,completed,completed');

    const compare = page.getByRole('region', { name: 'Compare two runs' });
    const before = compare.getByLabel('Before');
    const beforeOption = (await before.locator('option').allTextContents()).find((text) =>
      text.startsWith(`${SMALL} ·`),
    );
    await before.selectOption({ label: beforeOption! });
    const after = compare.getByLabel('After');
    await after.selectOption({
      label: (await after.locator('option').allTextContents()).find((t) => t.startsWith('v2 ·'))!,
    });
    await compare
      .getByTestId('compare-summary')
      .filter({ hasText: '2 items changed verdict: 0 now pass, 2 passed before.' })
      .waitFor();
    const changes = compare.getByTestId('verdict-changes');
    expect(await changes.locator('tbody tr').count()).toBe(2);
    expect(await changes.textContent()).toContain('Answer: Paris is the capital');
    expect(await changes.textContent()).toContain('expected: Paris is the capital');
    await shootAtBothSizes(page, compare, 'evals-compare');
  });

  it('compares two models side by side in the chat playground and saves the prompt with an answer as an eval item', async () => {
    const { page } = session;
    await page.getByRole('link', { name: 'Chat' }).click();
    await page.getByRole('tab', { name: 'Compare models' }).click();
    await page.getByRole('region', { name: 'Answer 1' }).getByRole('combobox').selectOption(SMALL);
    await page.getByRole('region', { name: 'Answer 2' }).getByRole('combobox').selectOption(LARGE);
    await page.getByLabel('Prompt for every model').fill('Name the <b>capital</b> of France');
    await page.getByRole('button', { name: 'Send to 2 models' }).click();
    for (const name of ['Answer 1', 'Answer 2']) {
      const pane = page.getByRole('region', { name });
      await page.locator(`section[aria-label="${name}"][data-status="done"]`).waitFor();
      expect(await pane.textContent()).toContain('Name the <b>capital</b> of France');
      expect(await pane.locator('.markdown b').count()).toBe(0);
      // A stream's cost is read from its request log entry once the stream ended: it shows a moment later.
      await expect
        .poll(async () => (await pane.getByRole('definition').allTextContents()).join(' '))
        .toMatch(/ms .*tok\/s .*tok .*tok .*USD/);
    }
    // Each model had its own stream, billed at its own route's prices.
    const costs = await Promise.all(
      ['Answer 1', 'Answer 2'].map(async (name) =>
        Number(/([\d.]+) USD/.exec((await page.getByRole('region', { name }).textContent()) ?? '')?.[1]),
      ),
    );
    expect(costs[1]).toBeGreaterThan(costs[0]);
    await page
      .getByRole('region', { name: 'Answer 2' })
      .getByRole('button', { name: 'Save the prompt with answer 2 as an eval item' })
      .click();
    await page.getByRole('status').filter({ hasText: 'with this answer as its reference' }).waitFor();
    await shootAtBothSizes(page, page.getByRole('form', { name: 'Compare prompt' }), 'chat-compare');

    await page.getByRole('link', { name: 'Evals' }).click();
    const form = page.getByRole('form', { name: 'New eval' });
    await form.getByRole('tab', { name: 'From the playground (1)' }).click();
    await form.getByRole('button', { name: 'Use the 1 saved items' }).click();
    await form
      .getByTestId('dataset-summary')
      .filter({ hasText: '1 row · fields: {{item.input}}, {{item.expected}}' })
      .waitFor();
  });
});
