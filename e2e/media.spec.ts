import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boxIou, drawTextImage, makeTextPdf, wordsAtDpi, type MadePdf } from '../gateway/test/support/draw-text.js';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

/** Page-image pixels of a PDF rendered for OCR (README: 200 DPI). */
const RENDER_DPI = 200;

describe('documents, image analysis and PDF OCR on the local engines', () => {
  let gateway: RunningGateway;
  let browser: Browser;
  let page: Page;
  let pdf: MadePdf;

  beforeAll(async () => {
    pdf = await makeTextPdf([
      {
        lines: [
          { text: 'The warehouse opens at nine every morning.', x: 60, y: 120, size: 18 },
          { text: 'Deliveries arrive through the north gate.', x: 60, y: 160, size: 18 },
        ],
      },
      {
        lines: [
          { text: 'The invoice total is 1250 euros.', x: 60, y: 120, size: 18 },
          { text: 'Payment is due at the end of March.', x: 60, y: 160, size: 18 },
        ],
      },
    ]);
    gateway = await startGateway();
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, gateway.url, gateway.adminKey, '/ui/documents');
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-media-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  it('answers a question about a two-page PDF and highlights the cited passage', async () => {
    await page.getByRole('link', { name: /Documents/ }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf.pdf });
    await page.getByText('report.pdf — pick another').waitFor();
    await page.getByRole('textbox', { name: 'Question' }).fill('What is the invoice total?');
    await page.getByRole('button', { name: 'Ask' }).click();

    const answer = page.getByRole('region', { name: 'Answer' });
    await answer.waitFor({ timeout: 60_000 });
    expect(await answer.locator('.markdown').textContent()).toContain('1250');
    const firstCitation = answer.locator('.citation').first();
    expect(await firstCitation.textContent()).toContain('p. 2');
    const highlighted = page.getByTestId('document-text').locator('mark.active');
    expect(await highlighted.textContent()).toContain('1250');
    expect(await page.getByTestId('document-text').textContent()).toContain('warehouse opens');
    await screenshot(page, 'documents-answer');
  });

  it('analyses an image locally: its size and the text on it', async () => {
    const drawn = await drawTextImage([{ text: 'HARBOUR LIGHTS 42', x: 40, y: 110, size: 48, bold: true }], {
      width: 720,
      height: 180,
    });
    await page.getByRole('link', { name: /Images/ }).click();
    await page.getByRole('tab', { name: 'Analyse' }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'sign.png', mimeType: drawn.mimeType, buffer: drawn.image });
    await page.getByRole('img', { name: 'To analyse' }).waitFor();
    await page.getByRole('button', { name: 'Analyse' }).click();
    const analysis = page.getByRole('region', { name: 'Analysis' }).locator('.markdown');
    await analysis.waitFor({ timeout: 60_000 });
    const text = (await analysis.textContent()) ?? '';
    expect(text).toMatch(/720\s*[×x]\s*180/);
    expect(text).toContain('HARBOUR');
    expect(text).toContain('42');
    await screenshot(page, 'images-analysed');
  });

  it('OCRs a two-page PDF: pages rendered by the gateway, boxes over each page, page navigation', async () => {
    await page.getByRole('link', { name: /OCR/ }).click();
    // Until the OCR page has rendered, the previous page's file input is still the one in the DOM.
    await page.getByRole('heading', { name: 'OCR inspector' }).waitFor();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf.pdf });
    const pager = page.getByRole('group', { name: 'Pages' });
    await pager.getByText('Page 1 / 2').waitFor({ timeout: 60_000 });
    await page.getByTestId('ocr-box').first().waitFor({ timeout: 60_000 });

    const boxTexts = async () =>
      Promise.all((await page.getByTestId('ocr-box').all()).map((b) => b.getAttribute('data-text')));
    /** Overlap of the on-screen box reading `word` with where the PDF drew it, both in 200-DPI page pixels. */
    const overlap = async (pageIndex: number, word: string) => {
      const drawnWord = wordsAtDpi(pdf.pages[pageIndex].words, RENDER_DPI).find((w) => w.text === word);
      const frame = await page.getByTestId('ocr-page-image').boundingBox();
      const box = await page.locator(`[data-testid="ocr-box"][data-text="${word}"]`).first().boundingBox();
      if (!drawnWord || !frame || !box) throw new Error(`No drawn word, page image or box for "${word}".`);
      const scale = frame.width / ((pdf.pages[pageIndex].width * RENDER_DPI) / 72);
      return boxIou(
        [
          (box.x - frame.x) / scale,
          (box.y - frame.y) / scale,
          (box.x + box.width - frame.x) / scale,
          (box.y + box.height - frame.y) / scale,
        ],
        drawnWord.bbox,
      );
    };
    expect(await boxTexts()).toContain('warehouse');
    expect(await boxTexts()).not.toContain('invoice');
    expect(
      await page.evaluate(`document.querySelector('[data-testid="ocr-page-image"]').naturalWidth`),
    ).toBeGreaterThan(0);
    expect(await overlap(0, 'warehouse')).toBeGreaterThan(0.5);
    await screenshot(page, 'ocr-pdf-page-1');

    await pager.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 2 / 2').waitFor();
    await page.locator('[data-testid="ocr-box"][data-text="invoice"]').first().waitFor({ timeout: 60_000 });
    expect(await boxTexts()).not.toContain('warehouse');
    expect(await overlap(1, 'invoice')).toBeGreaterThan(0.5);
    await screenshot(page, 'ocr-pdf-page-2');

    await pager.getByRole('button', { name: 'Previous page' }).click();
    await page.locator('[data-testid="ocr-box"][data-text="warehouse"]').first().waitFor();
  });
});
