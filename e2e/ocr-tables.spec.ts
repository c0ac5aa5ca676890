import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { boxIou } from '../gateway/test/support/draw-text.js';
import { drawTablePage, type DrawnTablePage } from '../gateway/test/support/draw-table.js';
import { zoneTable } from '../gateway/test/support/table-data.js';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

type Box = [number, number, number, number];

/** The drawn table cells on screen, mapped back from displayed pixels to page-image pixels. */
async function cellsInImagePixels(page: Page, pageWidth: number): Promise<{ row: number; col: number; bbox: Box }[]> {
  const frame = await page.getByTestId('ocr-page-image').boundingBox();
  if (!frame) throw new Error('The page image is not displayed.');
  const scale = frame.width / pageWidth;
  const shown: { row: number; col: number; bbox: Box }[] = [];
  for (const rect of await page.getByTestId('ocr-table-cell').all()) {
    const r = await rect.boundingBox();
    if (!r) continue;
    shown.push({
      row: Number(await rect.getAttribute('data-row')),
      col: Number(await rect.getAttribute('data-col')),
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

describe('OCR inspector: tables', () => {
  let gateway: RunningGateway;
  let browser: Browser;
  let page: Page;
  let drawn: DrawnTablePage;

  beforeAll(async () => {
    // Real rows of the tz database: cells with commas ("AE,OM,RE,SC,TF") and a leading + or -.
    drawn = await drawTablePage(zoneTable().slice(0, 7), { style: 'grid', heading: 'Time zones', height: 520 });
    gateway = await startGateway();
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, gateway.url, gateway.adminKey, '/ui/ocr');
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-ocr-tables-${context.task.name.split(' ').slice(0, 3).join('-')}`);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
  });

  it('draws the table cell grid over the page where the cells are', async () => {
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'zones.png', mimeType: drawn.mimeType, buffer: drawn.image });
    await page.getByTestId('ocr-table-cell').first().waitFor({ timeout: 60_000 });
    const shown = await cellsInImagePixels(page, drawn.width);
    expect(shown).toHaveLength(drawn.cells.length);
    for (const cell of drawn.cells) {
      const match = shown.find((candidate) => candidate.row === cell.row && candidate.col === cell.col);
      expect(match, `a drawn cell at row ${cell.row}, column ${cell.col}`).toBeDefined();
      expect(boxIou(match!.bbox, cell.bbox)).toBeGreaterThan(0.8);
    }
    await screenshot(page, 'ocr-tables-grid-1440');
  });

  it('shows the table as a table and copies it as Markdown and as CSV', async () => {
    await page.getByRole('tab', { name: 'Tables' }).click();
    const table = page.getByTestId('ocr-table');
    await table.waitFor();
    expect(await table.locator('th').allTextContents()).toEqual(drawn.rows[0]);
    expect(await table.locator('tbody tr').first().locator('td').allTextContents()).toEqual(drawn.rows[1]);
    await screenshot(page, 'ocr-tables-panel-1440');

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
    await table.getByRole('button', { name: 'Copy Markdown' }).click();
    await expect
      .poll(() => page.evaluate('navigator.clipboard.readText()'))
      .toMatch(
        /^\| Countries \| Coordinates \| Time zone \| Comments \|\n\| --- \| --- \| --- \| --- \|\n\| AD \| \+4230\+00131 \| Europe\/Andorra \| {2}\|/,
      );
    await table.getByRole('button', { name: 'Copy CSV' }).click();
    const csv = String(await page.evaluate('navigator.clipboard.readText()'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Countries,Coordinates,Time zone,Comments');
    // A + or - first would make a spreadsheet run the cell as a formula; commas are quoted.
    expect(lines[1]).toBe("AD,'+4230+00131,Europe/Andorra,");
    expect(lines[2]).toBe(`"AE,OM,RE,SC,TF",'+2518+05518,Asia/Dubai,Crozet`);

    await page.setViewportSize({ width: 1024, height: 800 });
    await table.waitFor();
    const panel = await table.boundingBox();
    const viewport = page.viewportSize()!;
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(viewport.width);
    await screenshot(page, 'ocr-tables-panel-1024');
    await page.getByRole('tab', { name: 'Text' }).click();
    await screenshot(page, 'ocr-tables-grid-1024');
  });
});
