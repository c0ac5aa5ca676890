/**
 * The benchmark's generated pages, by category: layouts people bring (articles in columns, magazine
 * pages with photos, book pages, receipts, forms, tables, listings) and degraded scans. Each page's
 * truth text is in the order a person reads it: header, title, columns left to right, tables row by row.
 */
import {
  DEGRADATIONS,
  DEGRADATION_VARIANTS,
  drawTextImage,
  makeDegradedPage,
  makeInvoiceImage,
  makeSecondInvoiceImage,
  makeVariantPage,
  textWidth,
  type Degradation,
  type DrawnImage,
  type FontKind,
  type TextLineSpec,
} from '../../gateway/test/support/draw-text.js';
import type { BoxCoordinates } from '../../gateway/src/providers/contracts/ocr.js';
import { ITEMS, NAMES, PARAGRAPHS, STREETS } from './corpus.js';

export interface BenchPage {
  name: string;
  category: string;
  image: DrawnImage;
}

function wrap(text: string, size: number, width: number, font: FontKind): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && textWidth(candidate, size, font) > width) {
      lines.push(current);
      current = word;
    } else current = candidate;
  }
  if (current) lines.push(current);
  return lines;
}

interface Flow {
  x: number;
  top: number;
  bottom: number;
  width: number;
  columns: number;
  size: number;
  font: FontKind;
  /** Per column, where its text starts (defaults to `top`). */
  columnTops?: number[];
}

/** Paragraphs poured into columns top to bottom, left to right, until the space runs out. */
function flowColumns(paragraphs: string[], f: Flow): TextLineSpec[] {
  const gutter = Math.round(f.size * 2.2);
  const columnWidth = (f.width - gutter * (f.columns - 1)) / f.columns;
  const leading = f.size * 1.45;
  const out: TextLineSpec[] = [];
  let column = 0;
  let y = (f.columnTops?.[0] ?? f.top) + f.size;
  for (const paragraph of paragraphs) {
    for (const text of wrap(paragraph, f.size, columnWidth, f.font)) {
      if (y > f.bottom) {
        column++;
        if (column >= f.columns) return out;
        y = (f.columnTops?.[column] ?? f.top) + f.size;
      }
      out.push({ text, x: Math.round(f.x + column * (columnWidth + gutter)), y: Math.round(y), size: f.size });
      y += leading;
    }
    y += f.size * 0.8;
  }
  return out;
}

const rotate = <T>(items: T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]);

interface ArticleSpec {
  columns: number;
  size: number;
  seed: number;
  font?: FontKind;
  width?: number;
  height?: number;
  degradation?: Degradation;
  photo?: boolean;
}

/** A page with a running header, a title, body text in columns (a photo and caption if asked) and a page number. */
function article(spec: ArticleSpec): Promise<DrawnImage> {
  const width = spec.width ?? 1240;
  const height = spec.height ?? 1754;
  const font = spec.font ?? 'serif';
  const margin = Math.round(width * 0.08);
  const lines: TextLineSpec[] = [];
  const small = Math.max(11, Math.round(spec.size * 0.8));
  lines.push({
    text: `The Valley Courier  Issue ${spec.seed + 40}  Spring edition`,
    x: margin,
    y: margin,
    size: small,
  });
  const titleSize = Math.round(spec.size * 2);
  lines.push({
    text: [
      'Flood plans tested by spring storms',
      'Library reopens after repairs',
      'What young oaks learn from old ones',
    ][spec.seed % 3],
    x: margin,
    y: margin + small + titleSize * 1.6,
    size: titleSize,
    bold: true,
  });
  const top = Math.round(margin + small + titleSize * 2.4);
  const bottom = height - margin - small * 3;
  const photos: BoxCoordinates[] = [];
  let columnTops: number[] | undefined;
  if (spec.photo) {
    const gutter = Math.round(spec.size * 2.2);
    const columnWidth = (width - 2 * margin - gutter * (spec.columns - 1)) / spec.columns;
    const photoBottom = top + Math.round(columnWidth * 0.7);
    photos.push([margin, top, Math.round(margin + columnWidth), photoBottom]);
    const caption = wrap(
      'Above: volunteers fill sand bags near the old mill bridge during the March storms.',
      small,
      columnWidth,
      font,
    );
    caption.forEach((text, i) =>
      lines.push({ text, x: margin, y: photoBottom + small * 1.6 + i * small * 1.4, size: small }),
    );
    columnTops = [Math.round(photoBottom + small * 1.6 + caption.length * small * 1.4 + spec.size), top];
  }
  lines.push(
    ...flowColumns(rotate(PARAGRAPHS, spec.seed * 2), {
      x: margin,
      top,
      bottom,
      width: width - 2 * margin,
      columns: spec.columns,
      size: spec.size,
      font,
      columnTops,
    }),
  );
  lines.push({
    text: `Page ${spec.seed + 3}`,
    x: Math.round(width / 2 - textWidth(`Page ${spec.seed + 3}`, small, font) / 2),
    y: height - margin,
    size: small,
  });
  return drawTextImage(lines, { width, height, font, photos, ...spec.degradation });
}

/** A book page: one serif column, a running header and a page number. */
function bookPage(seed: number, degradation: Degradation = {}): Promise<DrawnImage> {
  const width = 900;
  const height = 1300;
  const size = 19;
  const lines: TextLineSpec[] = [{ text: 'CHAPTER THREE: THE HARBOUR', x: 90, y: 80, size: 13 }];
  lines.push(
    ...flowColumns(rotate(PARAGRAPHS, seed + 5), {
      x: 90,
      top: 120,
      bottom: height - 140,
      width: width - 180,
      columns: 1,
      size,
      font: 'serif',
    }),
  );
  lines.push({ text: String(seed + 57), x: width / 2 - 10, y: height - 70, size: 13 });
  return drawTextImage(lines, { width, height, font: 'serif', ...degradation });
}

/** A till receipt: monospaced, items on the left, prices right-aligned. */
function receipt(seed: number, degradation: Degradation = {}): Promise<DrawnImage> {
  const size = 20;
  const width = 560;
  const right = width - 40;
  const lines: TextLineSpec[] = [
    { text: 'GREEN VALLEY MARKET', x: 130, y: 60, size: 24, bold: true },
    { text: `${12 + seed} ${STREETS[seed % STREETS.length]}`, x: 170, y: 95, size },
    { text: `2024-03-${10 + seed} 14:${20 + seed}`, x: 40, y: 150, size },
    { text: `Till ${seed + 2}`, x: right - textWidth(`Till ${seed + 2}`, size, 'mono'), y: 150, size },
  ];
  let y = 200;
  let total = 0;
  for (const [i, item] of rotate(ITEMS, seed).slice(0, 9).entries()) {
    const price = ((i * 37 + seed * 11) % 900) / 100 + 0.99;
    total += price;
    lines.push(
      { text: item, x: 40, y, size },
      { text: price.toFixed(2), x: right - textWidth(price.toFixed(2), size, 'mono'), y, size },
    );
    y += size * 1.6;
  }
  y += size;
  lines.push(
    { text: 'TOTAL', x: 40, y, size, bold: true },
    { text: total.toFixed(2), x: right - textWidth(total.toFixed(2), size, 'mono', true), y, size, bold: true },
  );
  lines.push({ text: 'Thank you for shopping with us', x: 95, y: y + 70, size });
  return drawTextImage(lines, { width, height: Math.round(y + 120), font: 'mono', ...degradation });
}

/** A filled-in form: labels on the left, answers in a second column. */
function form(seed: number, degradation: Degradation = {}): Promise<DrawnImage> {
  const size = 20;
  const name = NAMES[seed % NAMES.length].split(', ').reverse().join(' ');
  const fields: [string, string][] = [
    ['Full name:', name],
    ['Date of birth:', `${seed + 3} May 1987`],
    ['Address:', `${20 + seed} ${STREETS[(seed + 2) % STREETS.length]}`],
    ['Postcode:', `AB${seed + 1} 4CD`],
    ['Telephone:', `0161 555 0${100 + seed * 7}`],
    ['Email:', `${name.split(' ')[0].toLowerCase()}@example.org`],
    ['Membership type:', seed % 2 ? 'Family' : 'Adult'],
    ['Signed:', name],
  ];
  const lines: TextLineSpec[] = [{ text: 'Library Membership Application', x: 60, y: 70, size: 28, bold: true }];
  fields.forEach(([label, value], i) => {
    lines.push({ text: label, x: 60, y: 150 + i * 50, size }, { text: value, x: 330, y: 150 + i * 50, size });
  });
  const rules: BoxCoordinates[] = fields.map((_, i) => [320, 158 + i * 50, 760, 158 + i * 50]);
  return drawTextImage(lines, { width: 800, height: 150 + fields.length * 50 + 40, rules, ...degradation });
}

/** A table: header row and data rows in four columns, with or without rules. */
function table(seed: number, ruled: boolean, degradation: Degradation = {}): Promise<DrawnImage> {
  const size = 19;
  const xs = [50, 330, 520, 720];
  const rows: string[][] = [['Region', 'Orders', 'Revenue', 'Change']];
  for (let i = 0; i < 9; i++) {
    rows.push([
      STREETS[(i + seed) % STREETS.length].split(' ')[0],
      String(120 + ((i * 53 + seed * 17) % 900)),
      `$${(1000 + ((i * 977 + seed * 131) % 9000)).toLocaleString('en-US')}`,
      `${((i * 7 + seed) % 19) - 6}.${(i + seed) % 10}%`,
    ]);
  }
  const lines: TextLineSpec[] = [{ text: 'Quarterly orders by region', x: 50, y: 50, size: 24, bold: true }];
  const rules: BoxCoordinates[] = [];
  rows.forEach((row, r) => {
    const y = 120 + r * 44;
    row.forEach((cell, c) => lines.push({ text: cell, x: xs[c], y, size, bold: r === 0 }));
    if (ruled) rules.push([40, y + 14, 900, y + 14]);
  });
  return drawTextImage(lines, { width: 940, height: 120 + rows.length * 44 + 30, rules, ...degradation });
}

/** A directory listing: name, address and telephone in three columns. */
function listing(seed: number, degradation: Degradation = {}): Promise<DrawnImage> {
  const size = 18;
  const lines: TextLineSpec[] = [{ text: 'Residents directory', x: 50, y: 50, size: 24, bold: true }];
  rotate(NAMES, seed).forEach((name, i) => {
    const y = 110 + i * 36;
    lines.push(
      { text: name, x: 50, y, size },
      { text: `${3 + i * 2} ${STREETS[(i + seed) % STREETS.length]}`, x: 330, y, size },
      { text: `555-01${String(10 + i * 3 + seed).padStart(2, '0')}`, x: 650, y, size },
    );
  });
  return drawTextImage(lines, { width: 860, height: 110 + NAMES.length * 36 + 20, ...degradation });
}

/** Every generated benchmark page; `quick` keeps one page per category. */
export async function benchPages(quick = false): Promise<BenchPage[]> {
  const pages: BenchPage[] = [];
  const add = async (category: string, name: string, image: Promise<DrawnImage>): Promise<void> => {
    pages.push({ category, name, image: await image });
  };
  await add('multi_column', 'two_columns', article({ columns: 2, size: 20, seed: 0 }));
  await add('multi_column', 'three_columns_sans', article({ columns: 3, size: 18, seed: 1, font: 'sans' }));
  await add('magazine', 'photo_two_columns', article({ columns: 2, size: 20, seed: 2, photo: true, font: 'sans' }));
  await add('book', 'book_page', bookPage(0));
  await add('receipt', 'receipt', receipt(0));
  await add('form', 'form', form(0));
  await add('table', 'table_ruled', table(0, true));
  await add('listing', 'listing', listing(0));
  await add('small_font', 'two_columns_13px', article({ columns: 2, size: 13, seed: 3, width: 1000, height: 1100 }));
  await add(
    'noisy',
    'two_columns_noise',
    article({ columns: 2, size: 20, seed: 4, degradation: { noise: 35, saltPepper: 0.01, seed: 4 } }),
  );
  await add('blurred', 'two_columns_blur', article({ columns: 2, size: 20, seed: 5, degradation: { blur: 1.3 } }));
  await add('jpeg', 'receipt_jpeg_q15', receipt(1, { jpegQuality: 15 }));
  await add('skewed', 'two_columns_skew_1_5', article({ columns: 2, size: 20, seed: 6, degradation: { rotate: 1.5 } }));
  await add('low_contrast', 'book_low_contrast', bookPage(1, { ink: 140, paper: 195, noise: 10, seed: 3 }));
  await add(
    'unreadable',
    'blank_grain',
    drawTextImage([], { width: 900, height: 600, paper: 235, noise: 14, jpegQuality: 30, seed: 12 }),
  );
  await add(
    'unreadable',
    'faint_noisy_jpeg',
    bookPage(2, { ink: 165, paper: 185, noise: 40, jpegQuality: 10, seed: 21 }),
  );
  if (!quick) {
    await add('multi_column', 'two_columns_sans_b', article({ columns: 2, size: 22, seed: 7, font: 'sans' }));
    await add('magazine', 'photo_three_columns', article({ columns: 3, size: 17, seed: 8, photo: true }));
    await add('book', 'book_page_b', bookPage(3));
    await add('receipt', 'receipt_b', receipt(2));
    await add('form', 'form_b', form(1));
    await add('table', 'table_plain', table(1, false));
    await add('listing', 'listing_b', listing(3));
    await add('small_font', 'book_page_11px', article({ columns: 1, size: 11, seed: 9, width: 800, height: 900 }));
    await add('noisy', 'table_noise', table(2, true, { noise: 30, seed: 8 }));
    await add('blurred', 'form_blur', form(2, { blur: 1.5 }));
    await add(
      'jpeg',
      'three_columns_jpeg_q20',
      article({ columns: 3, size: 18, seed: 10, font: 'sans', degradation: { jpegQuality: 20 } }),
    );
    await add('skewed', 'listing_skew_neg2', listing(5, { rotate: -2 }));
    await add(
      'low_contrast',
      'two_columns_uneven_light',
      article({ columns: 2, size: 20, seed: 11, degradation: { unevenLight: 150, ink: 40 } }),
    );
    for (const name of Object.keys(DEGRADATIONS)) await add('legacy_prose', name, makeDegradedPage(name));
    for (const name of Object.keys(DEGRADATION_VARIANTS)) await add('legacy_prose', name, makeVariantPage(name));
    await add('legacy_invoice', 'invoice_table', makeInvoiceImage());
    await add('legacy_invoice', 'invoice_rotated_noisy', makeInvoiceImage({ rotate: 1.5, noise: 25, jpegQuality: 30 }));
    await add('legacy_invoice', 'invoice2_table', makeSecondInvoiceImage());
    await add(
      'legacy_invoice',
      'invoice2_rotated_noisy',
      makeSecondInvoiceImage({ rotate: -2, noise: 22, jpegQuality: 35, seed: 9 }),
    );
  }
  return pages;
}
