import { Mistral } from '@mistralai/mistralai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTextPdf, type TextLineSpec } from '../../support/draw-text.js';
import { drawTablePage, normaliseCell, type DrawnTablePage } from '../../support/draw-table.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { co2Table, zoneTable } from '../../support/table-data.js';

/** Tables through POST /v1/ocr in Mistral's form: ruled, unruled and running across two pages, cell by cell. */
let gateway: TestGateway;
let ruled: DrawnTablePage;
let unruled: DrawnTablePage;
let twoPages: Buffer;
const co2 = co2Table();
/** The rows drawn on the two PDF pages: the header and 1959–1978 on the first, 1979–1998 on the second. */
const FIRST_PART = co2.slice(0, 21);
const SECOND_PART = co2.slice(21, 41);

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
const ocr = (body: Record<string, unknown>) => gateway.request('/v1/ocr', { method: 'POST', json: body });
const tableBlocks = (page: Json): Json[] => page.blocks.filter((block: Json) => block.type === 'table');
/** A table block's cells as texts, row by row. */
const cellRows = (block: Json): string[][] => {
  const rows: string[][] = [];
  for (const cell of block.cells) (rows[cell.row] ??= [])[cell.col] = normaliseCell(cell.text);
  return rows;
};

/** A table on a text-layer PDF page (A5 landscape, to keep the test fast): columns at fixed points, 14 points a row. */
function pdfTableLines(rows: string[][], top: number): TextLineSpec[] {
  const columns = [60, 130, 250, 340, 450];
  return rows.flatMap((row, r) => row.map((text, c) => ({ text, x: columns[c], y: top + r * 14, size: 9 })));
}
const A5 = { width: 595, height: 420 };

beforeAll(async () => {
  gateway = await startGateway({ warm: true });
  ruled = await drawTablePage([co2[0], ...co2.slice(41, 49)], {
    style: 'grid',
    heading: 'Carbon dioxide, yearly means (ppm)',
    width: 1000,
    height: 620,
  });
  unruled = await drawTablePage(zoneTable().slice(0, 9), {
    style: 'unruled',
    font: 'serif',
    paragraph: ['Time zones of the first countries in the tz database.'],
    width: 1000,
    height: 560,
  });
  twoPages = (
    await makeTextPdf([
      {
        ...A5,
        lines: [
          { text: 'Carbon dioxide at Mauna Loa', x: 60, y: 50, size: 16 },
          ...pdfTableLines(FIRST_PART.map((row) => row.filter((_, c) => c !== 3)).map(fillEmpty), 90),
        ],
      },
      {
        ...A5,
        lines: pdfTableLines(
          SECOND_PART.map((row) => row.filter((_, c) => c !== 3)),
          50,
        ),
      },
    ])
  ).pdf;
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
}, 60_000);
afterAll(async () => {
  await gateway.close();
});

/** The PDF's table leaves out the global mean (empty before 1979); an empty cell in a text layer is no word at all. */
function fillEmpty(row: string[]): string[] {
  return row.map((text) => text || '-');
}

describe('tables in POST /v1/ocr', () => {
  it('a ruled table: found by its grid, every cell read, each box on its drawn cell', async () => {
    const body = await json(
      await ocr({
        document: { type: 'image_url', image_url: dataUrl(ruled.image) },
        include_blocks: true,
        table_format: 'markdown',
      }),
    );
    const [page] = body.pages;
    expect(page.markdown).toMatch(/^#+ Carbon dioxide, yearly means \(ppm\)\n\n\[tbl-0\.md\]\(tbl-0\.md\)$/);
    const [block] = tableBlocks(page);
    expect(block).toMatchObject({ table_id: 'tbl-0.md', table_ruling: 'ruled' });
    expect(cellRows(block)).toEqual(ruled.rows);
    for (const cell of ruled.cells) {
      const found = block.cells.find((candidate: Json) => candidate.row === cell.row && candidate.col === cell.col);
      const box = [found.top_left_x, found.top_left_y, found.bottom_right_x, found.bottom_right_y];
      box.forEach((value, at) => expect(Math.abs(value - cell.bbox[at])).toBeLessThanOrEqual(4));
    }
    expect(page.tables).toEqual([
      {
        id: 'tbl-0.md',
        format: 'markdown',
        content: [
          `| ${ruled.rows[0].join(' | ')} |`,
          '| --- | --- | --- | --- | --- |',
          ...ruled.rows.slice(1).map((row) => `| ${row.join(' | ')} |`),
        ].join('\n'),
      },
    ]);
  });

  it('an unruled table: found by its columns, inline in the markdown when no table_format is asked', async () => {
    const body = await json(
      await ocr({ document: { type: 'image_url', image_url: dataUrl(unruled.image) }, include_blocks: true }),
    );
    const [page] = body.pages;
    expect(page.tables).toEqual([]);
    expect(page.markdown).toContain(
      '| Countries | Coordinates | Time zone | Comments |\n| --- | --- | --- | --- |\n| AD | +4230+00131 | Europe/Andorra |  |\n| AE,OM,RE,SC,TF | +2518+05518 | Asia/Dubai | Crozet |',
    );
    const [block] = tableBlocks(page);
    expect(block.table_ruling).toBe('unruled');
    expect(cellRows(block)).toEqual(unruled.rows);
    // Each cell's box holds the words drawn in it.
    for (const cell of block.cells.filter((candidate: Json) => candidate.text)) {
      const truth = unruled.cells.find((candidate) => candidate.row === cell.row && candidate.col === cell.col)!;
      expect(cell.top_left_x).toBeLessThanOrEqual(truth.bbox[2]);
      expect(cell.bottom_right_x).toBeGreaterThanOrEqual(truth.bbox[0]);
      expect(cell.top_left_y).toBeLessThan(truth.bbox[3]);
      expect(cell.bottom_right_y).toBeGreaterThan(truth.bbox[1]);
    }
  });

  it("SPEC's form with include_tables: each page's tables with rows, Markdown and cells (what the console's inspector draws)", async () => {
    const body = await json(await ocr({ image: dataUrl(unruled.image), include_tables: true, return_bboxes: false }));
    const [table] = body.pages[0].tables;
    expect(table).toMatchObject({ ruling: 'unruled', continues_previous_page: false, rows: unruled.rows });
    expect(table.markdown).toMatch(/^\| Countries \| Coordinates \| Time zone \| Comments \|\n\| --- \|/);
    expect(table.cells).toHaveLength(unruled.cells.length);
  });

  it('a table running on to a second page: the second part continues the first, under its header row', async () => {
    const body = await json(
      await ocr({
        document: { type: 'document_url', document_url: dataUrl(twoPages, 'application/pdf') },
        include_blocks: true,
        table_format: 'html',
      }),
    );
    const [first, second] = body.pages;
    const header = FIRST_PART[0].filter((_, c) => c !== 3);
    expect(first.tables.map((table: Json) => table.id)).toEqual(['tbl-0.html']);
    expect(second.markdown).toBe('[tbl-1.html](tbl-1.html)');
    expect(second.tables).toEqual([
      expect.objectContaining({ id: 'tbl-1.html', format: 'html', continues_table_id: 'tbl-0.html' }),
    ]);
    expect(second.tables[0].content).toMatch(
      /^<table><tr><th>Year<\/th><th>Mauna Loa mean<\/th><th>Uncertainty<\/th><th>Annual increase<\/th><\/tr><tr><td>1979<\/td>/,
    );
    const [firstBlock] = tableBlocks(first);
    const [secondBlock] = tableBlocks(second);
    expect(secondBlock).toMatchObject({ table_id: 'tbl-1.html', continues_table_id: 'tbl-0.html' });
    expect(firstBlock.continues_table_id).toBeUndefined();
    // Row 0 of the second part is the first part's header, not on that page: it has no cells.
    expect(secondBlock.cells.some((cell: Json) => cell.row === 0)).toBe(false);
    const joined = [...cellRows(firstBlock), ...cellRows(secondBlock).slice(1)];
    expect(joined).toEqual([
      header,
      ...FIRST_PART.slice(1).map((row) => fillEmpty(row.filter((_, c) => c !== 3))),
      ...SECOND_PART.map((row) => row.filter((_, c) => c !== 3)),
    ]);
  });
});

describe('tables through the official @mistralai/mistralai SDK: ocr.process', () => {
  const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });

  it('validates the answer with table_format html and markdown', async () => {
    const document = { type: 'document_url', documentUrl: dataUrl(twoPages, 'application/pdf') } as const;
    const html = await client().ocr.process({ model: 'svc-ocr-3', document, tableFormat: 'html', includeBlocks: true });
    expect(html.pages[1].tables).toEqual([
      expect.objectContaining({
        id: 'tbl-1.html',
        format: 'html',
        content: expect.stringMatching(/^<table><tr><th>Year<\/th>/),
      }),
    ]);
    expect(html.pages[1].blocks?.find((block) => block.type === 'table')).toMatchObject({ tableId: 'tbl-1.html' });

    const markdown = await client().ocr.process({
      model: 'svc-ocr-3',
      document,
      tableFormat: 'markdown',
      includeBlocks: true,
    });
    expect(markdown.pages.map((page) => page.tables?.map((table) => table.id))).toEqual([['tbl-0.md'], ['tbl-1.md']]);
    expect(markdown.pages[1].tables?.[0].content).toMatch(
      /^\| Year \| Mauna Loa mean \| Uncertainty \| Annual increase \|\n/,
    );
  });
});
