/**
 * Table accuracy: tables of real data (NOAA's yearly carbon dioxide, the tz database's countries and
 * time zones; bench/ocr/SOURCES.md, "Tables") drawn ruled as a grid, with a rule under the header
 * only, and unruled, in three fonts, clean and scan-like, and two tables running over two pages. Each
 * page is read by the gateway's local engine and laid out as `POST /v1/ocr` does (Mistral's form,
 * include_blocks, table_format markdown); its table blocks' cells are scored against the drawn cells:
 * - found: a table block over the drawn table; structure: as many rows and columns as drawn (a
 *   two-page table: the joined table, first part plus each continuing part's rows after its header);
 * - cells: drawn cells whose text the block has at the same row and column, whitespace normalised;
 * - in text: drawn non-empty cells whose text appears in the page's text (the gateway's markdown, the
 *   `tesseract` command's output), which the command can be compared on: it gives no table structure.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildMistralPages } from '../../gateway/src/ocr-layout/build-mistral-pages.js';
import type { OcrPage } from '../../gateway/src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../gateway/src/providers/contracts/provider-instance.js';
import type { OcrPageBlock, OcrPageObject } from '../../gateway/src/wire/mistral-ocr-response-schema.js';
import {
  drawTablePage,
  normaliseCell,
  tableColumnWidths,
  type DrawnTablePage,
  type TablePageOptions,
} from '../../gateway/test/support/draw-table.js';
import { co2Table, countryTable, zoneTable } from '../../gateway/test/support/table-data.js';

const exec = promisify(execFile);

interface TableCase {
  name: string;
  style: TablePageOptions['style'];
  /** The drawn rows, header first; a two-page case draws `split` rows (after the header) on the first page. */
  rows: string[][];
  split?: number;
  options?: Partial<TablePageOptions>;
}

const SCAN = { rotate: 0.4, blur: 0.6, noise: 10, seed: 3 } as const;

function cases(): TableCase[] {
  const co2 = co2Table();
  const countries = countryTable();
  const zones = zoneTable();
  const header = (rows: string[][], from: number, count: number) => [rows[0], ...rows.slice(from, from + count)];
  return [
    { name: 'co2_grid_sans', style: 'grid', rows: header(co2, 21, 14) },
    { name: 'co2_header_rule_serif', style: 'header_rule', rows: header(co2, 35, 14), options: { font: 'serif' } },
    { name: 'co2_unruled_mono', style: 'unruled', rows: header(co2, 49, 14), options: { font: 'mono' } },
    { name: 'countries_grid_serif', style: 'grid', rows: header(countries, 1, 16), options: { font: 'serif' } },
    { name: 'countries_unruled_sans', style: 'unruled', rows: header(countries, 60, 16) },
    { name: 'zones_grid_sans', style: 'grid', rows: header(zones, 1, 14) },
    { name: 'zones_header_rule_sans', style: 'header_rule', rows: header(zones, 40, 14) },
    { name: 'zones_unruled_serif', style: 'unruled', rows: header(zones, 80, 14), options: { font: 'serif' } },
    { name: 'co2_grid_small', style: 'grid', rows: header(co2, 1, 20), options: { size: 14 } },
    { name: 'co2_grid_scan', style: 'grid', rows: header(co2, 30, 14), options: SCAN },
    { name: 'zones_unruled_scan', style: 'unruled', rows: header(zones, 120, 14), options: SCAN },
    {
      name: 'countries_header_rule_scan',
      style: 'header_rule',
      rows: header(countries, 120, 14),
      options: { ...SCAN, jpegQuality: 70 },
    },
    { name: 'co2_grid_two_pages', style: 'grid', rows: co2, split: 36 },
    {
      name: 'zones_unruled_two_pages',
      style: 'unruled',
      rows: header(zones, 160, 70),
      split: 36,
      options: { size: 18 },
    },
  ];
}

async function drawCase(table: TableCase): Promise<DrawnTablePage[]> {
  const base: TablePageOptions = {
    style: table.style,
    heading: 'Table 1',
    paragraph: ['Figures as published; see the sources for their definitions.'],
    ...table.options,
  };
  if (table.split === undefined) return [await drawTablePage(table.rows, base)];
  const first = table.rows.slice(0, table.split + 1);
  const second = table.rows.slice(table.split + 1);
  // Both parts have the whole table's column widths, as a typeset table does.
  const widths = tableColumnWidths(table.rows, base);
  return [
    await drawTablePage(first, { ...base, columnWidths: widths }),
    await drawTablePage(second, { ...base, heading: undefined, paragraph: undefined, columnWidths: widths }),
  ];
}

const tableBlocks = (page: OcrPageObject): OcrPageBlock[] =>
  (page.blocks ?? []).filter((block) => block.type === 'table');

function blockRows(block: OcrPageBlock): string[][] {
  const rows: string[][] = [];
  for (const cell of block.cells ?? []) (rows[cell.row] ??= [])[cell.col] = normaliseCell(cell.text);
  return rows.map((row) => Array.from({ length: row.length }, (_, at) => row[at] ?? ''));
}

/** The table as the gateway answered it: one page's largest table block, or a first part with the parts that continue it. */
function answeredTable(pages: OcrPageObject[]): { rows: string[][]; joined: boolean } | undefined {
  const [first, ...rest] = pages.map(tableBlocks);
  const largest = [...first].sort((a, b) => (b.cells?.length ?? 0) - (a.cells?.length ?? 0))[0];
  if (!largest) return undefined;
  const rows = blockRows(largest);
  let joined = rest.length > 0;
  for (const blocks of rest) {
    const part = blocks.find((block) => block.continues_table_id && block.continues_table_id === largest.table_id);
    if (!part) {
      joined = false;
      continue;
    }
    rows.push(...blockRows(part).slice(1));
  }
  return { rows, joined };
}

interface TableScore {
  name: string;
  style: string;
  found: boolean;
  structure: boolean;
  joined?: boolean;
  cells: number;
  cellsRight: number;
  inText: number;
  inTextGateway: number;
  inTextCommand: number;
  seconds: number;
}

const squash = (text: string) => text.replace(/\s+/g, ' ');

async function scoreCase(table: TableCase, provider: ProviderInstance, dir: string): Promise<TableScore> {
  const drawn = await drawCase(table);
  const start = performance.now();
  const pages: OcrPage[] = [];
  for (const [index, page] of drawn.entries()) {
    const result = await provider.capabilities.ocr!.ocr({
      model: 'bench',
      document: page.image,
      mimeType: page.mimeType,
      pictures: { minSize: null, keepImages: false },
      signal: new AbortController().signal,
    });
    pages.push({ ...result.pages[0], index });
  }
  const seconds = (performance.now() - start) / 1000;
  let figure = 0;
  const answer = buildMistralPages(
    pages,
    pages.map((page) => ({
      dpi: 72,
      pictures: page.pictures ?? [],
      figures: (page.pictures ?? []).map((bbox) => ({ id: `img-${figure++}.jpeg`, bbox })),
    })),
    {
      tableFormat: 'markdown',
      extractHeader: false,
      extractFooter: false,
      includeBlocks: true,
      confidenceGranularity: null,
    },
  );
  let commandText = '';
  for (const [index, page] of drawn.entries()) {
    const file = path.join(dir, `${table.name}-${index}.${page.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`);
    await writeFile(file, page.image);
    commandText += (await exec('tesseract', [file, 'stdout'], { maxBuffer: 64 << 20 })).stdout + '\n';
  }
  const gatewayText = squash(
    answer.map((page) => [page.markdown, ...page.tables.map((t) => t.content)].join('\n')).join('\n'),
  );
  const truth = table.rows.map((row) => row.map(normaliseCell));
  const found = answeredTable(answer);
  const cells = truth.flat().length;
  const cellsRight = found
    ? truth.reduce((sum, row, r) => sum + row.filter((text, c) => (found.rows[r]?.[c] ?? null) === text).length, 0)
    : 0;
  const nonEmpty = truth.flat().filter(Boolean);
  if (process.env.TABLES_DUMP && found) {
    const wrong = truth
      .map((row, r) => [r, row, found.rows[r]] as const)
      .filter(([, row, got]) => row.join('|') !== got?.join('|'));
    console.log(table.name, `${found.rows.length} rows answered`, JSON.stringify(wrong.slice(0, 4)));
  }
  return {
    name: table.name,
    style: table.style,
    found: found !== undefined,
    structure:
      found !== undefined &&
      found.rows.length === truth.length &&
      found.rows.every((row) => row.length === truth[0].length),
    ...(table.split !== undefined ? { joined: found?.joined ?? false } : {}),
    cells,
    cellsRight,
    inText: nonEmpty.length,
    inTextGateway: nonEmpty.filter((text) => gatewayText.includes(text)).length,
    inTextCommand: nonEmpty.filter((text) => squash(commandText).includes(text)).length,
    seconds,
  };
}

const percent = (part: number, whole: number) => (whole ? ((100 * part) / whole).toFixed(1) : '-');

/** Scores every table case and prints one row per case and the totals by style. */
export async function measureTables(
  provider: ProviderInstance,
  dir: string,
  options: { only?: string[] } = {},
): Promise<TableScore[]> {
  const scores: TableScore[] = [];
  for (const table of cases().filter(
    (candidate) => !options.only || options.only.some((name) => candidate.name.includes(name)),
  ))
    scores.push(await scoreCase(table, provider, dir));
  console.log('\nTables (cells: right text at the right row and column; in text: cell texts found in the page text)');
  console.log(
    '| table | style | found | rows × cols | joined | cells right | in text, gateway | in text, command | s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const score of scores)
    console.log(
      `| ${score.name} | ${score.style} | ${score.found ? 'yes' : 'no'} | ${score.structure ? 'match' : 'differ'} | ${score.joined === undefined ? '' : score.joined ? 'yes' : 'no'} | ` +
        `${percent(score.cellsRight, score.cells)} % of ${score.cells} | ${percent(score.inTextGateway, score.inText)} % | ${percent(score.inTextCommand, score.inText)} % | ${score.seconds.toFixed(1)} |`,
    );
  for (const style of ['grid', 'header_rule', 'unruled', 'all']) {
    const of = scores.filter((score) => style === 'all' || score.style === style);
    const sum = (pick: (score: TableScore) => number) => of.reduce((total, score) => total + pick(score), 0);
    console.log(
      `| ${style} (${of.length} tables) | | ${of.filter((s) => s.found).length} of ${of.length} | ${of.filter((s) => s.structure).length} of ${of.length} match | | ` +
        `${percent(
          sum((s) => s.cellsRight),
          sum((s) => s.cells),
        )} % of ${sum((s) => s.cells)} | ${percent(
          sum((s) => s.inTextGateway),
          sum((s) => s.inText),
        )} % | ${percent(
          sum((s) => s.inTextCommand),
          sum((s) => s.inText),
        )} % | |`,
    );
  }
  return scores;
}
