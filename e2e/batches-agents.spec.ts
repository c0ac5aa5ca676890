import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { CHAT_MODEL, startFakeStack, type FakeStack } from './support/fake-stack.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

describe('batches and agents against a fake upstream', () => {
  let stack: FakeStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startFakeStack();
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, stack.gateway.url, stack.gateway.adminKey, '/ui/batches');
  });
  afterEach(async (context) => {
    stack.upstream.setBehaviour(null);
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const batchRow = () => page.getByTestId('batches-table').locator('tbody tr').first();

  it('composes a batch, follows it to completion and previews its output', async () => {
    await page.getByRole('link', { name: /Batches/ }).click();
    const prompts = ['red apple', 'green pear', 'blue plum'];
    for (const [i, prompt] of prompts.entries()) {
      if (i > 0) await page.getByRole('button', { name: '+ Add a request' }).click();
      await page.getByLabel(`Custom id ${i + 1}`).fill(`fruit-${i + 1}`);
      await page.getByLabel(`Prompt ${i + 1}`).fill(prompt);
    }
    await page.getByRole('button', { name: /JSONL that will be uploaded/ }).click();
    expect((await page.getByTestId('batch-jsonl').textContent())?.split('\n')).toHaveLength(3);
    await page.getByRole('button', { name: 'Create batch' }).click();

    await batchRow().getByTestId('batch-status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    expect(await batchRow().textContent()).toContain('3 / 3');
    await batchRow()
      .getByRole('button', { name: /^Output of/ })
      .click();
    const output = page.getByTestId('batch-output');
    await output.waitFor();
    const text = (await output.textContent()) ?? '';
    for (const [i, prompt] of prompts.entries()) {
      expect(text).toContain(`fruit-${i + 1}`);
      expect(text).toContain(prompt);
    }
    await screenshot(page, 'batches-output');
    await page.keyboard.press('Escape');
    await screenshot(page, 'batches-completed');
  });

  it('uploads a JSONL file and cancels the batch while it runs', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'hang_before_headers' }, path: '/v1/chat/completions' });
    const jsonl = ['one', 'two']
      .map((word) =>
        JSON.stringify({
          custom_id: word,
          method: 'POST',
          url: '/v1/chat/completions',
          body: { model: CHAT_MODEL, messages: [{ role: 'user', content: word }] },
        }),
      )
      .join('\n');
    await page.getByRole('tab', { name: 'Upload JSONL' }).click();
    await page
      .locator('form[aria-label="New batch"] input[type="file"]')
      .setInputFiles({ name: 'words.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(jsonl) });
    await page.getByText('words.jsonl · 2 lines').waitFor();
    await page.getByRole('button', { name: 'Create batch' }).click();

    await batchRow().getByTestId('batch-status').filter({ hasText: 'in progress' }).waitFor({ timeout: 30_000 });
    const id = (await batchRow().locator('td').first().textContent()) ?? '';
    expect(await batchRow().getByRole('progressbar').getAttribute('aria-valuemax')).toBe('2');
    await batchRow()
      .getByRole('button', { name: `Cancel ${id}` })
      .click();
    // Cancelling asks first; Escape keeps the batch running, the keyboard alone can confirm.
    const confirm = page.getByRole('dialog', { name: `Cancel ${id}?` });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await batchRow().getByTestId('batch-status').textContent()).toContain('in progress');
    await batchRow()
      .getByRole('button', { name: `Cancel ${id}` })
      .click();
    await confirm.getByRole('button', { name: 'Cancel batch' }).focus();
    await page.keyboard.press('Enter');
    await batchRow().getByTestId('batch-status').filter({ hasText: 'cancelled' }).waitFor();
    expect(
      await batchRow()
        .getByRole('button', { name: `Cancel ${id}` })
        .count(),
    ).toBe(0);

    const again = await fetch(`${stack.gateway.url}/v1/batch/${id}/cancel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.gateway.adminKey}` },
    });
    expect(again.status).toBe(409);
    await screenshot(page, 'batches-cancelled');
  });

  it('says why a JSONL file cannot make a batch, naming the line the gateway refused at upload', async () => {
    await page.getByRole('link', { name: /Batches/ }).click();
    const good = JSON.stringify({
      custom_id: 'ok',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] },
    });
    await page.getByRole('tab', { name: 'Upload JSONL' }).click();
    await page.locator('form[aria-label="New batch"] input[type="file"]').setInputFiles({
      name: 'broken.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(`${good}\n{not json\n`),
    });
    await page.getByRole('button', { name: 'Create batch' }).click();
    const refusal = page.getByRole('form', { name: 'New batch' }).getByRole('alert');
    await refusal.getByText(/Line 2 of the batch file is not valid JSON/).waitFor({ timeout: 30_000 });
    expect(await refusal.textContent()).toContain('invalid_batch_file');
    await screenshot(page, 'batches-failed');
  });

  it('shows a completed batch whose every line failed as a failure, with the reason one click away', async () => {
    stack.upstream.setBehaviour({
      failure: {
        type: 'status',
        status: 400,
        body: {
          error: {
            message: 'This model cannot take these parameters today.',
            type: 'invalid_request_error',
            code: 'bad_parameters',
          },
        },
      },
      path: '/v1/chat/completions',
    });
    const jsonl = ['first', 'second']
      .map((word) =>
        JSON.stringify({
          custom_id: `doomed-${word}`,
          method: 'POST',
          url: '/v1/chat/completions',
          body: { model: CHAT_MODEL, messages: [{ role: 'user', content: word }] },
        }),
      )
      .join('\n');
    await page.getByRole('tab', { name: 'Upload JSONL' }).click();
    await page
      .locator('form[aria-label="New batch"] input[type="file"]')
      .setInputFiles({ name: 'doomed.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(jsonl) });
    await page.getByText('doomed.jsonl · 2 lines').waitFor();
    await page.getByRole('button', { name: 'Create batch' }).click();

    const status = batchRow().getByTestId('batch-status');
    await status.filter({ hasText: 'completed, all 2 lines failed' }).waitFor({ timeout: 30_000 });
    expect(await status.getAttribute('class')).toContain('badge-error');
    expect(await batchRow().getByTestId('batch-failed-lines').textContent()).toContain('Every line failed.');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await layoutProblems(page), `batches at ${viewport.width} px`).toEqual([]);
      await screenshot(page, `batches-all-failed-${viewport.width}`);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await batchRow()
      .getByRole('button', { name: /^Why lines of .* failed$/ })
      .click();
    const reasons = page.getByTestId('batch-failure-reasons');
    await reasons.waitFor();
    expect(await reasons.textContent()).toContain('2 × ');
    expect(await reasons.textContent()).toContain('This model cannot take these parameters today.');
    await screenshot(page, 'batches-all-failed-why');
    await page.keyboard.press('Escape');
  });

  it('creates an agent, talks to it, edits and deletes it', async () => {
    await page.getByRole('link', { name: /Agents/ }).click();
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByLabel('Name').fill('Echo bot');
    await form.getByLabel('Description').fill('Repeats what it hears');
    await form.getByLabel('Instructions').fill('Answer in the voice of a lighthouse keeper.');
    await form.getByRole('button', { name: 'Create agent' }).click();

    const details = page.getByRole('region', { name: 'Agent details' });
    await details.getByText('Answer in the voice of a lighthouse keeper.').waitFor();

    const before = stack.upstream.requests.length;
    await page.getByLabel('Message to the agent').fill('storm warning tonight');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('article', { name: 'Agent' }).getByText('storm warning tonight').waitFor();
    const sent = stack.upstream.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
    expect(sent?.body).toMatchObject({
      messages: [
        { role: 'system', content: 'Answer in the voice of a lighthouse keeper.' },
        { role: 'user', content: 'storm warning tonight' },
      ],
    });
    await screenshot(page, 'agents-try');

    await details.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('form', { name: 'Edit agent' }).getByLabel('Name').fill('Keeper bot');
    await page.getByRole('button', { name: 'Save agent' }).click();
    await page.getByRole('region', { name: 'Agents' }).getByText('Keeper bot').waitFor();

    await page.getByRole('region', { name: 'Agent details' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Keeper bot?' })
      .getByRole('button', { name: 'Delete agent' })
      .click();
    await page.getByText('No agents yet').waitFor();
    const list = (await (
      await fetch(`${stack.gateway.url}/v1/agents`, { headers: { Authorization: `Bearer ${stack.gateway.adminKey}` } })
    ).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(0);
  });
});
