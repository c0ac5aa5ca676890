import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boxIou, drawTextImage, type DrawnImage } from '../gateway/test/support/draw-text.js';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

type Box = [number, number, number, number];

/** Every drawn box on screen, mapped back from displayed pixels to page-image pixels. */
async function boxesInImagePixels(page: Page, pageWidth: number): Promise<{ text: string; bbox: Box }[]> {
  const frame = await page.getByTestId('ocr-page-image').boundingBox();
  if (!frame) throw new Error('The page image is not displayed.');
  const scale = frame.width / pageWidth;
  const shown: { text: string; bbox: Box }[] = [];
  for (const rect of await page.getByTestId('ocr-box').all()) {
    const r = await rect.boundingBox();
    if (!r) continue;
    shown.push({
      text: (await rect.getAttribute('data-text')) ?? '',
      bbox: [
        (r.x - frame.x) / scale,
        (r.y - frame.y) / scale,
        (r.x + r.width - frame.x) / scale,
        (r.y + r.height - frame.y) / scale,
      ],
    });
  }
  return shown;
}

function expectBoxesOverWords(drawn: DrawnImage, shown: { text: string; bbox: Box }[]): void {
  for (const word of drawn.words) {
    const candidates = shown.filter((b) => b.text === word.text);
    expect(candidates.length, `a box reading "${word.text}"`).toBeGreaterThan(0);
    const best = Math.max(...candidates.map((b) => boxIou(b.bbox, word.bbox)));
    expect(best, `overlap of the box for "${word.text}" with where it was drawn`).toBeGreaterThan(0.5);
  }
}

describe('OCR inspector', () => {
  let gateway: RunningGateway;
  let browser: Browser;
  let page: Page;
  let drawn: DrawnImage;

  beforeAll(async () => {
    drawn = await drawTextImage(
      [
        { text: 'INVOICE 4471', x: 60, y: 110, size: 48, bold: true },
        { text: 'Total due 1250 EUR', x: 60, y: 260, size: 44 },
        { text: 'Paid by transfer', x: 60, y: 390, size: 44 },
      ],
      { width: 900, height: 480 },
    );
    gateway = await startGateway();
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, gateway.url, gateway.adminKey, '/ui/ocr');
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-ocr-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  it('draws every recognised word where it is on the page, at fit and when zoomed', async () => {
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'invoice.png', mimeType: drawn.mimeType, buffer: drawn.image });
    await page.getByTestId('ocr-box').first().waitFor({ timeout: 60_000 });
    expectBoxesOverWords(drawn, await boxesInImagePixels(page, drawn.width));
    await screenshot(page, 'ocr-fit');

    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expectBoxesOverWords(drawn, await boxesInImagePixels(page, drawn.width));
    await page.getByRole('button', { name: 'Fit to width' }).click();
  });

  it('"View code" shows a cURL command that runs as shown, reading the uploaded file from disk', async () => {
    await page.getByRole('button', { name: /View code/ }).click();
    const dialog = page.getByRole('dialog', { name: 'View code' });
    const curl = (await dialog.getByTestId('code-snippet').textContent()) ?? '';
    expect(curl).toContain("base64 < 'invoice.png'");
    expect(await dialog.textContent()).toContain('invoice.png');
    // The page behind the dialog is inert: no focus, no clicks, nothing for a screen reader.
    expect(await page.evaluate(`document.getElementById('root').inert`)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'ocr-curl-'));
    try {
      writeFileSync(join(dir, 'invoice.png'), drawn.image);
      const answer = execFileSync('bash', ['-c', curl], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { PATH: process.env.PATH ?? '', SWITCHYARD_API_KEY: gateway.adminKey },
        timeout: 60_000,
      });
      const result = JSON.parse(answer.toString()) as { text?: string; bboxes?: unknown[] };
      expect(result, answer.toString().slice(0, 300)).toHaveProperty('text');
      expect(result.text).toContain('4471');
      expect(result.bboxes?.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(`document.getElementById('root').inert`)).toBe(false);
  });

  it('selecting a box highlights its word in the text, and the reverse', async () => {
    const box = page.locator('[data-testid="ocr-box"][data-text="4471"]').first();
    await box.click();
    const token = page.getByTestId('ocr-text-panel').getByText('4471', { exact: true });
    expect(await token.getAttribute('data-selected')).toBe('true');

    await page.getByTestId('ocr-text-panel').getByText('transfer', { exact: true }).click();
    expect(
      await page.locator('[data-testid="ocr-box"][data-text="transfer"]').first().getAttribute('data-selected'),
    ).toBe('true');
    expect(await box.getAttribute('data-selected')).toBeNull();

    await box.hover();
    expect(await page.getByRole('tooltip').textContent()).toMatch(/4471\s*\d+(\.\d)? %/);
    await screenshot(page, 'ocr-selected');
  });

  it('the recognised text can be selected with the mouse and copied as text', async () => {
    const panel = page.getByTestId('ocr-text-panel');
    const from = await panel.getByText('INVOICE', { exact: true }).boundingBox();
    const to = await panel.getByText('transfer', { exact: true }).boundingBox();
    if (!from || !to) throw new Error('The text panel shows no words.');
    await page.mouse.move(from.x + 1, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width - 1, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    const selected = String(await page.evaluate('window.getSelection().toString()'));
    expect(selected.replace(/\s+/g, ' ').trim()).toBe('INVOICE 4471 Total due 1250 EUR Paid by transfer');
    expect(selected).toContain('\n');
    // The drag selected text, not a word: the selection on the page is unchanged.
    expect(
      await page.locator('[data-testid="ocr-box"][data-text="transfer"]').first().getAttribute('data-selected'),
    ).toBe('true');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.keyboard.press('Control+C');
    expect(
      String(await page.evaluate('navigator.clipboard.readText()'))
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe('INVOICE 4471 Total due 1250 EUR Paid by transfer');
    await screenshot(page, 'ocr-text-selected');
    await page.evaluate('window.getSelection().removeAllRanges()');
  });

  it('search marks the matching boxes, and the threshold dims the unsure ones', async () => {
    await page.getByLabel('Search in the text').fill('total');
    const matches = page.locator('[data-testid="ocr-box"][data-match="true"]');
    expect(await matches.count()).toBe(1);
    expect(await matches.first().getAttribute('data-text')).toBe('Total');
    await page.getByLabel('Search in the text').fill('');

    const confidences = await Promise.all(
      (await page.getByTestId('ocr-box').all()).map(async (r) => Number(await r.getAttribute('data-confidence'))),
    );
    await page.getByLabel('Confidence threshold').fill('1');
    const dimmed = await page.locator('[data-testid="ocr-box"][data-dimmed="true"]').count();
    expect(dimmed).toBe(confidences.filter((c) => c < 1).length);
    await page.getByLabel('Confidence threshold').fill('0');
    expect(await page.locator('[data-testid="ocr-box"][data-dimmed="true"]').count()).toBe(0);
  });

  it('line granularity draws one box per line', async () => {
    await page.getByRole('button', { name: 'Lines' }).click();
    await expect
      .poll(() => page.evaluate(`document.querySelectorAll('[data-testid="ocr-box"]').length === 3`), {
        timeout: 60_000,
      })
      .toBe(true);
    const lines = await Promise.all((await page.getByTestId('ocr-box').all()).map((r) => r.getAttribute('data-text')));
    expect(lines.join('\n')).toContain('Total due 1250 EUR');
    await screenshot(page, 'ocr-lines');
    await page.getByRole('button', { name: 'Words' }).click();
    await page.getByTestId('ocr-box').nth(3).waitFor({ timeout: 60_000 });
  });

  it("extracts with the page's own default schema, each null field shown with its reason", async () => {
    await page.getByRole('tab', { name: 'Structured' }).click();
    await page.getByRole('button', { name: 'Extract structured data' }).click();
    const structured = page.getByTestId('ocr-structured');
    await structured.waitFor({ timeout: 60_000 });
    const data = JSON.parse((await structured.textContent()) ?? '{}') as Record<string, unknown>;
    expect(data).toMatchObject({ total: 1250, currency: 'EUR', date: null });
    expect(await page.getByTestId('ocr-structured-missing').textContent()).toMatch(/date is null: .+/);
    expect(await page.getByText('Filled by the rule-based extractor', { exact: false }).count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('extracts structured data with a schema and shows it beside the page', async () => {
    await page.getByRole('tab', { name: 'Structured' }).click();
    await page
      .getByLabel('JSON schema of the data to extract')
      .fill(
        JSON.stringify(
          { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } },
          null,
          2,
        ),
      );
    await page.getByRole('button', { name: 'Extract structured data' }).click();
    const structured = page.getByTestId('ocr-structured');
    await structured.waitFor({ timeout: 60_000 });
    const data = JSON.parse((await structured.textContent()) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(expect.arrayContaining(['invoice_number', 'total']));
    expect(await page.getByTestId('ocr-box').count()).toBeGreaterThan(0);
    await screenshot(page, 'ocr-structured');
  });

  it('keeps the OCR result when a schema extraction is refused, and refuses a non-image before uploading', async () => {
    const boxes = await page.getByTestId('ocr-box').count();
    expect(boxes).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Structured' }).click();
    await page.getByLabel('JSON schema of the data to extract').fill(JSON.stringify({ type: 'banana' }));
    await page.getByRole('button', { name: 'Extract structured data' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Schema extraction failed' });
    await alert.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('ocr-box').count()).toBe(boxes);
    await screenshot(page, 'ocr-schema-refused');

    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: 'letter.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: Buffer.from('PK\u0003\u0004'),
      });
    expect(await page.getByTestId('ocr-file-problem').textContent()).toContain('not an image or a PDF');
    // A new attempt: the last error card goes, only the new one is shown.
    expect(await page.getByRole('alert').filter({ hasText: 'Schema extraction failed' }).count()).toBe(0);
    expect(await page.getByTestId('ocr-box').count()).toBe(boxes);
    expect(await page.getByText('Preparing the page…').count()).toBe(0);

    // Too large for OCR: refused in the browser with the limit, nothing uploaded, the result kept.
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: Buffer.alloc(37 * 1024 * 1024) });
    expect(await page.getByTestId('ocr-file-problem').textContent()).toContain(
      'the largest file OCR accepts here is 36 MB',
    );
    expect(await page.getByTestId('ocr-box').count()).toBe(boxes);
    expect(await page.getByText('Preparing the page…').count()).toBe(0);
  });

  it('shows the exact OCR request as code', async () => {
    await page.getByRole('button', { name: /View code/ }).click();
    const dialog = page.getByRole('dialog', { name: 'View code' });
    const snippet = dialog.getByTestId('code-snippet');
    expect(await snippet.textContent()).toContain('/v1/ocr');
    await dialog.getByRole('tab', { name: 'Python' }).click();
    expect(await snippet.textContent()).toContain('requests.post(');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
