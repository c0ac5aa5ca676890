import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { makeWav } from '../gateway/test/support/wav.js';
import { IMAGE_MODEL, startFakeStack, type FakeStack } from './support/fake-stack.js';

async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Opens a playground from the sidebar and waits for its own page: its code loads after the click, and until then the last page is still on screen. */
async function openPageOn(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: new RegExp(name) }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

describe('playgrounds against a fake upstream', () => {
  let stack: FakeStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await startFakeStack([
      {
        id: 'svc-draw-square',
        provider: 'fake',
        upstream_model: 'fake-image',
        capabilities: ['image_generation'],
        image_sizes: ['512x512', '768x768'],
      },
    ]);
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, stack.gateway.url, stack.gateway.adminKey);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const assistant = () => page.getByRole('article', { name: 'Assistant' }).last();

  it('streams a chat answer with its statistics, and keeps the conversation after a reload', async () => {
    await openPageOn(page, 'Chat');
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
      await page
        .getByRole('textbox', { name: 'Message' })
        .fill('one two three four five six seven eight nine ten eleven twelve');
      await page.keyboard.press('Enter');
      await assistant().getByText(/one/).waitFor();
      await page.getByRole('button', { name: /Stop/ }).click();
      await assistant().getByText('stopped').waitFor();
      const partial = (await assistant().locator('.markdown').textContent()) ?? '';
      expect(partial.length).toBeGreaterThan(0);
      expect(partial).not.toContain('twelve');
      // A stopped answer still gets its statistics (what arrived before the stop).
      expect(await assistant().getByLabel('Answer statistics').textContent()).toContain('First token');
      const upstreamRequest = stack.upstream.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
      await upstreamRequest?.settled;
      expect(upstreamRequest?.aborted).toBe(true);
      await page.getByRole('button', { name: 'Send' }).waitFor();
      await screenshot(page, 'chat-stopped');
    } finally {
      stack.upstream.setBehaviour(null);
    }
  });

  it('puts a whole, clickable Copy button on every code block of an answer, even a one-line one', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.gateway.url });
    // The second block is empty, as a model's unclosed fence renders: the shortest a block gets.
    await page.getByRole('textbox', { name: 'Message' }).fill('```\nx = 1\n```\n\n```\n```');
    await page.keyboard.press('Enter');
    await assistant().getByLabel('Answer statistics').waitFor();
    const blocks = assistant().locator('pre.code-with-copy');
    expect(await blocks.count()).toBe(2);
    for (const block of await blocks.all()) {
      const [pre, button] = [
        await block.boundingBox(),
        await block.getByRole('button', { name: 'Copy code' }).boundingBox(),
      ];
      // The button lies wholly inside its block (an overflow:auto box, which clipped it on short blocks).
      expect(button!.y + button!.height).toBeLessThanOrEqual(pre!.y + pre!.height);
      expect(button!.x + button!.width).toBeLessThanOrEqual(pre!.x + pre!.width);
    }
    const copy = blocks.first().getByRole('button', { name: 'Copy code' });
    await copy.click();
    await copy.filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('x = 1');
    await screenshot(page, 'chat-code-copy');
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
    await openPageOn(page, 'Completions');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Roses are red');
    await page.getByRole('spinbutton', { name: 'Frequency penalty' }).fill('0.75');
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.getByTestId('completion-text').filter({ hasText: /\S/ }).waitFor();
    const sent = stack.upstream.requests.findLast(
      (r) => r.path.endsWith('/completions') && !r.path.endsWith('/chat/completions'),
    );
    expect(sent?.body).toMatchObject({ prompt: 'Roses are red', frequency_penalty: 0.75 });
    await page.getByLabel('Answer statistics').waitFor();
    await screenshot(page, 'completions');
  });

  it('embeds texts and shows the similarity matrix', async () => {
    await openPageOn(page, 'Embeddings');
    await page.getByRole('button', { name: 'Embed and compare' }).click();
    await page.getByRole('table', { name: 'Cosine similarity matrix' }).waitFor();
    const cells = page.getByTestId('similarity-cell');
    expect(await cells.count()).toBe(9);
    for (let i = 0; i < 3; i++) {
      expect(
        Number(
          await page
            .locator(`[data-testid="similarity-cell"][data-row="${i}"][data-col="${i}"]`)
            .getAttribute('data-value'),
        ),
      ).toBeCloseTo(1, 3);
    }
    const a = await page
      .locator('[data-testid="similarity-cell"][data-row="0"][data-col="2"]')
      .getAttribute('data-value');
    const b = await page
      .locator('[data-testid="similarity-cell"][data-row="2"][data-col="0"]')
      .getAttribute('data-value');
    expect(a).toBe(b);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('embeddings.csv');
    const csv = await readDownload(download);
    expect(csv.split('\n')[0]).toMatch(/^text,d0,d1,/);
    expect(csv.split('\n')[1]).toMatch(/^The cat sat on the mat\.,-?\d/);
    await screenshot(page, 'embeddings');
  });

  it('generates an image and shows it in the gallery', async () => {
    await openPageOn(page, 'Images');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse at dusk');
    await page.getByLabel('Size').selectOption('256x256');
    await page.getByRole('button', { name: 'Generate' }).click();
    const image = page.getByTestId('generated-image').locator('img').first();
    await image.waitFor();
    // Polled from outside the page: the console's CSP (no eval) refuses waitForFunction's predicate.
    await expect
      .poll(
        () =>
          page.evaluate(`(() => {
      const img = document.querySelector('[data-testid="generated-image"] img');
      return !!img && img.complete && img.naturalWidth > 0;
    })()`),
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(await page.evaluate(`document.querySelector('[data-testid="generated-image"] img').naturalWidth`)).toBe(256);
    await screenshot(page, 'images-generated');

    // A refused generation shows the gateway's error and keeps the images already made.
    stack.upstream.setBehaviour({
      failure: {
        type: 'status',
        status: 400,
        body: { error: { message: 'prompt refused by the fake provider', type: 'invalid_request_error' } },
      },
      times: 1,
    });
    try {
      await page.getByRole('button', { name: 'Generate', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: 'prompt refused by the fake provider' }).waitFor();
      expect(await page.getByTestId('generated-image').locator('img').count()).toBeGreaterThan(0);
    } finally {
      stack.upstream.setBehaviour(null);
    }
  });

  it('offers only the sizes the chosen image model accepts', async () => {
    await openPageOn(page, 'Images');
    const form = page.locator('form').filter({ has: page.getByLabel('Size') });
    await form.getByLabel('Model').selectOption('svc-draw-square');
    await expect
      .poll(async () => form.getByLabel('Size').locator('option').allTextContents())
      .toEqual(['512x512', '768x768']);
    expect(await form.getByLabel('Size').inputValue()).toBe('512x512');
    await form.getByLabel('Model').selectOption(IMAGE_MODEL);
    await expect
      .poll(async () => (await form.getByLabel('Size').locator('option').allTextContents()).length)
      .toBeGreaterThan(2);
  });

  it('transcribes an uploaded audio file with segment timestamps', async () => {
    await openPageOn(page, 'Transcription');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'hello.wav', mimeType: 'audio/wav', buffer: makeWav(1) });
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const transcript = page.getByTestId('transcript');
    await transcript.waitFor();
    expect(await transcript.textContent()).toContain('hello.wav');
    expect(await transcript.textContent()).toContain('00:00.00');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export SRT' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('hello.srt');
    expect(await readDownload(download)).toMatch(/^1\n00:00:00,000 --> 00:00:\d\d,\d{3}\n/);
    await screenshot(page, 'transcription');
  });
});
