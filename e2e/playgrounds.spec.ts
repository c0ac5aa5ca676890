import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { makeWav } from '../gateway/test/support/wav.js';
import { startFakeStack, type FakeStack } from './support/fake-stack.js';

async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('playgrounds against a fake upstream', () => {
  let stack: FakeStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startFakeStack();
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, stack.gateway.url, stack.gateway.adminKey);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `failed-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const assistant = () => page.getByRole('article', { name: 'Assistant' }).last();

  it('streams a chat answer with its statistics, and keeps the conversation after a reload', async () => {
    await page.getByRole('link', { name: /Chat/ }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('alpha beta gamma delta');
    await page.keyboard.press('Enter');
    await assistant().getByText('alpha beta gamma delta').waitFor();
    await assistant().getByLabel('Answer statistics').waitFor();
    const stats = await assistant().getByLabel('Answer statistics').textContent();
    expect(stats).toContain('First token');
    expect(stats).toMatch(/Completion\s*\d+ tok/);
    const sent = stack.upstream.requests.find((r) => r.path.endsWith('/chat/completions'));
    expect(sent?.body).toMatchObject({ stream: true, messages: [{ role: 'user', content: 'alpha beta gamma delta' }] });

    await page.reload();
    await page.getByRole('article', { name: 'Assistant' }).getByText('alpha beta gamma delta').waitFor();
    await screenshot(page, 'chat-streamed');
  });

  it('stops a streaming answer: the request is aborted upstream and the partial text stays', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    try {
      const before = stack.upstream.requests.length;
      await page.getByRole('textbox', { name: 'Message' }).fill('one two three four five six seven eight nine ten eleven twelve');
      await page.keyboard.press('Enter');
      await assistant().getByText(/one/).waitFor();
      await page.getByRole('button', { name: /Stop/ }).click();
      await assistant().getByText('stopped').waitFor();
      const partial = (await assistant().locator('.markdown').textContent()) ?? '';
      expect(partial.length).toBeGreaterThan(0);
      expect(partial).not.toContain('twelve');
      const upstreamRequest = stack.upstream.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
      await upstreamRequest?.settled;
      expect(upstreamRequest?.aborted).toBe(true);
      await page.getByRole('button', { name: 'Send' }).waitFor();
      await screenshot(page, 'chat-stopped');
    } finally {
      stack.upstream.setBehaviour(null);
    }
  });

  it('shows the exact request as code', async () => {
    await page.getByRole('button', { name: /View code/ }).click();
    const dialog = page.getByRole('dialog', { name: 'View code' });
    expect(await dialog.getByTestId('code-snippet').textContent()).toContain('/v1/chat/completions');
    await dialog.getByRole('tab', { name: 'Python' }).click();
    expect(await dialog.getByTestId('code-snippet').textContent()).toContain('from openai import OpenAI');
    await screenshot(page, 'chat-view-code');
    await page.keyboard.press('Escape');
  });

  it('streams a text completion', async () => {
    await page.getByRole('link', { name: /Completions/ }).click();
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Roses are red');
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.getByTestId('completion-text').filter({ hasText: /\S/ }).waitFor();
    await page.getByLabel('Answer statistics').waitFor();
    await screenshot(page, 'completions');
  });

  it('embeds texts and shows the similarity matrix', async () => {
    await page.getByRole('link', { name: /Embeddings/ }).click();
    await page.getByRole('button', { name: 'Embed and compare' }).click();
    await page.getByRole('table', { name: 'Cosine similarity matrix' }).waitFor();
    const cells = page.getByTestId('similarity-cell');
    expect(await cells.count()).toBe(9);
    for (let i = 0; i < 3; i++) {
      expect(Number(await page.locator(`[data-testid="similarity-cell"][data-row="${i}"][data-col="${i}"]`).getAttribute('data-value'))).toBeCloseTo(1, 3);
    }
    const a = await page.locator('[data-testid="similarity-cell"][data-row="0"][data-col="2"]').getAttribute('data-value');
    const b = await page.locator('[data-testid="similarity-cell"][data-row="2"][data-col="0"]').getAttribute('data-value');
    expect(a).toBe(b);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('embeddings.csv');
    const csv = await readDownload(download);
    expect(csv.split('\n')[0]).toMatch(/^text,d0,d1,/);
    expect(csv.split('\n')[1]).toMatch(/^The cat sat on the mat\.,-?\d/);
    await screenshot(page, 'embeddings');
  });

  it('generates an image and shows it in the gallery', async () => {
    await page.getByRole('link', { name: /Images/ }).click();
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse at dusk');
    await page.getByLabel('Size').selectOption('256x256');
    await page.getByRole('button', { name: 'Generate' }).click();
    const image = page.getByTestId('generated-image').locator('img').first();
    await image.waitFor();
    // Polled from outside the page: the console's CSP (no eval) refuses waitForFunction's predicate.
    await expect.poll(() => page.evaluate(`(() => {
      const img = document.querySelector('[data-testid="generated-image"] img');
      return !!img && img.complete && img.naturalWidth > 0;
    })()`), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(`document.querySelector('[data-testid="generated-image"] img').naturalWidth`)).toBe(256);
    await screenshot(page, 'images-generated');
  });

  it('transcribes an uploaded audio file with segment timestamps', async () => {
    await page.getByRole('link', { name: /Transcription/ }).click();
    await page.locator('input[type="file"]').setInputFiles({ name: 'hello.wav', mimeType: 'audio/wav', buffer: makeWav(1) });
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const transcript = page.getByTestId('transcript');
    await transcript.waitFor();
    expect(await transcript.textContent()).toContain('hello.wav');
    expect(await transcript.textContent()).toContain('00:00.00');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SRT' }).click()]);
    expect(download.suggestedFilename()).toBe('hello.srt');
    expect(await readDownload(download)).toMatch(/^1\n00:00:00,000 --> 00:00:\d\d,\d{3}\n/);
    await screenshot(page, 'transcription');
  });
});
