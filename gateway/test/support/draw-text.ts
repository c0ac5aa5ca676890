/**
 * Test tooling: draws known text at known positions into images and PDFs, with the degradations
 * real scans have, and returns where each word was drawn. Used by OCR unit tests, HTTP tests,
 * browser tests and the OCR benchmark.
 */
import { existsSync } from 'node:fs';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { BoxCoordinates } from '../../src/providers/contracts/ocr.js';
import { seededRandom } from './seeded-random.js';

export { seededRandom };

/** `cjk`: a font with Chinese and Japanese glyphs (fonts-wqy-microhei or fonts-noto-cjk). */
export type FontKind = 'sans' | 'serif' | 'mono' | 'cjk';

export interface TextLineSpec {
  text: string;
  /** Left edge of the text, pixels (points for PDFs). */
  x: number;
  /** Baseline, pixels from the top (points for PDFs). */
  y: number;
  /** Font size, pixels (points for PDFs). */
  size: number;
  bold?: boolean;
}

export interface DrawnWord {
  text: string;
  /** [x1, y1, x2, y2], top-left origin, in the returned image's pixels. */
  bbox: BoxCoordinates;
}

export interface Degradation {
  /** Degrees, positive is clockwise; the text is rotated about the page centre. */
  rotate?: number;
  /** Gaussian blur sigma in pixels. */
  blur?: number;
  /** Gaussian noise standard deviation in gray levels. */
  noise?: number;
  /** Fraction of pixels flipped to black or white. */
  saltPepper?: number;
  /** Encodes as JPEG at this quality (1..100). */
  jpegQuality?: number;
  /** Ink and paper gray levels (default 0 on 255). */
  ink?: number;
  paper?: number;
  /** Light falls off from the top-left corner: the far corner is this much darker (gray levels). */
  unevenLight?: number;
  /** Seed for noise, so images are reproducible. */
  seed?: number;
}

export interface DrawOptions extends Degradation {
  width: number;
  height: number;
  font?: FontKind;
  /** Horizontal and vertical rules to draw: [x1, y1, x2, y2] segments, 2 px wide. */
  rules?: BoxCoordinates[];
  /** Photo-like regions (shaded, with shapes, no text): [x1, y1, x2, y2]. */
  photos?: BoxCoordinates[];
}

export interface DrawnImage {
  /** PNG, or JPEG when `jpegQuality` is set. */
  image: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  words: DrawnWord[];
  /** The drawn lines joined with newlines. */
  text: string;
}

const FONT_FILES: Record<FontKind, string[]> = {
  sans: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  ],
  serif: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf',
  ],
  mono: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
  ],
  cjk: ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'],
};
const BOLD_FILES: Record<FontKind, string[]> = {
  sans: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  ],
  serif: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf',
  ],
  mono: [
    '/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf',
  ],
  cjk: ['/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc'],
};

const registered = new Set<string>();
function fontFamily(kind: FontKind, bold: boolean): string {
  const family = `Test ${kind}${bold ? ' bold' : ''}`;
  if (!registered.has(family)) {
    const file = (bold ? BOLD_FILES : FONT_FILES)[kind].find((candidate) => existsSync(candidate));
    if (!file)
      throw new Error(
        `No ${kind} font found for drawing test text; install ${kind === 'cjk' ? 'fonts-wqy-microhei' : 'fonts-dejavu-core'}.`,
      );
    GlobalFonts.registerFromPath(file, family);
    registered.add(family);
  }
  return family;
}

let measuring: SKRSContext2D | undefined;
/** Width in pixels of `text` drawn at `size` px in the test fonts (for wrapping generated pages). */
export function textWidth(text: string, size: number, font: FontKind = 'sans', bold = false): number {
  measuring ??= createCanvas(1, 1).getContext('2d');
  measuring.font = `${size}px "${fontFamily(font, bold)}"`;
  return measuring.measureText(text).width;
}

function rotatePoint(x: number, y: number, cx: number, cy: number, radians: number): [number, number] {
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
}

/** Axis-aligned bounds of a box after rotating it about (cx, cy). */
function rotateBox(box: BoxCoordinates, cx: number, cy: number, radians: number): BoxCoordinates {
  const corners = [
    rotatePoint(box[0], box[1], cx, cy, radians),
    rotatePoint(box[2], box[1], cx, cy, radians),
    rotatePoint(box[0], box[3], cx, cy, radians),
    rotatePoint(box[2], box[3], cx, cy, radians),
  ];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [
    Math.floor(Math.min(...xs)),
    Math.floor(Math.min(...ys)),
    Math.ceil(Math.max(...xs)),
    Math.ceil(Math.max(...ys)),
  ];
}

/** Tight glyph boxes of each space-separated word of a line drawn with the context's current font. */
function measureWords(ctx: SKRSContext2D, line: TextLineSpec): DrawnWord[] {
  const words: DrawnWord[] = [];
  let searchFrom = 0;
  for (const word of line.text.split(/\s+/).filter(Boolean)) {
    const start = line.text.indexOf(word, searchFrom);
    searchFrom = start + word.length;
    const offset = ctx.measureText(line.text.slice(0, start)).width;
    const metrics = ctx.measureText(word);
    words.push({
      text: word,
      bbox: [
        Math.floor(line.x + offset - metrics.actualBoundingBoxLeft),
        Math.floor(line.y - metrics.actualBoundingBoxAscent),
        Math.ceil(line.x + offset + metrics.actualBoundingBoxRight),
        Math.ceil(line.y + metrics.actualBoundingBoxDescent),
      ],
    });
  }
  return words;
}

function gray(level: number): string {
  const v = Math.max(0, Math.min(255, Math.round(level)));
  return `rgb(${v},${v},${v})`;
}

/** Shaded rectangles with soft circles: something a layout analysis must not read as text. */
function drawPhotos(ctx: SKRSContext2D, photos: BoxCoordinates[], seed: number): void {
  const random = seededRandom(seed + 101);
  for (const [x1, y1, x2, y2] of photos) {
    const gradient = ctx.createLinearGradient(x1, y1, x2, y2);
    gradient.addColorStop(0, gray(90 + random() * 60));
    gradient.addColorStop(1, gray(170 + random() * 60));
    ctx.fillStyle = gradient;
    ctx.fillRect(x1, y1, x2 - x1, y2 - y1);
    for (let i = 0; i < 12; i++) {
      const r = (0.05 + random() * 0.15) * Math.min(x2 - x1, y2 - y1);
      ctx.fillStyle = gray(40 + random() * 200);
      ctx.beginPath();
      ctx.arc(x1 + r + random() * (x2 - x1 - 2 * r), y1 + r + random() * (y2 - y1 - 2 * r), r, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

/** Pixel-level degradations applied after drawing: noise in place on RGBA pixels. */
function addNoise(pixels: Uint8Array, options: Degradation): void {
  const random = seededRandom(options.seed ?? 7);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  for (let i = 0; i < pixels.length; i += 4) {
    let delta = options.noise ? gaussian() * options.noise : 0;
    if (options.saltPepper && random() < options.saltPepper) delta = random() < 0.5 ? -255 : 255;
    for (let c = 0; c < 3; c++) pixels[i + c] = Math.max(0, Math.min(255, pixels[i + c] + delta));
  }
}

/**
 * Draws `lines` (baseline positions, pixel font sizes) on a page and applies the degradations in
 * `options`. Returns the encoded image and each word's box in the image's pixels.
 */
export async function drawTextImage(lines: TextLineSpec[], options: DrawOptions): Promise<DrawnImage> {
  const { width, height } = options;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const paper = options.paper ?? 255;
  if (options.unevenLight) {
    const gradient = ctx.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, gray(paper));
    gradient.addColorStop(1, gray(paper - options.unevenLight));
    ctx.fillStyle = gradient;
  } else {
    ctx.fillStyle = gray(paper);
  }
  ctx.fillRect(0, 0, width, height);
  drawPhotos(ctx, options.photos ?? [], options.seed ?? 7);

  const radians = ((options.rotate ?? 0) * Math.PI) / 180;
  const cx = width / 2;
  const cy = height / 2;
  ctx.translate(cx, cy);
  ctx.rotate(radians);
  ctx.translate(-cx, -cy);
  ctx.fillStyle = gray(options.ink ?? 0);
  ctx.strokeStyle = gray(options.ink ?? 0);
  ctx.textBaseline = 'alphabetic';

  const words: DrawnWord[] = [];
  for (const line of lines) {
    ctx.font = `${line.size}px "${fontFamily(options.font ?? 'sans', line.bold ?? false)}"`;
    ctx.fillText(line.text, line.x, line.y);
    for (const word of measureWords(ctx, line))
      words.push({ text: word.text, bbox: rotateBox(word.bbox, cx, cy, radians) });
  }
  ctx.lineWidth = 2;
  for (const rule of options.rules ?? []) {
    ctx.beginPath();
    ctx.moveTo(rule[0], rule[1]);
    ctx.lineTo(rule[2], rule[3]);
    ctx.stroke();
  }

  const pixels = new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer);
  if (options.noise || options.saltPepper) addNoise(pixels, options);
  let pipeline = sharp(pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  if (options.blur) pipeline = pipeline.blur(options.blur);
  const jpeg = options.jpegQuality !== undefined;
  const image = jpeg
    ? await pipeline.jpeg({ quality: options.jpegQuality }).toBuffer()
    : await pipeline.png().toBuffer();
  return {
    image,
    mimeType: jpeg ? 'image/jpeg' : 'image/png',
    width,
    height,
    words,
    text: lines.map((line) => line.text).join('\n'),
  };
}

// ---------- standard pages ----------

const PARAGRAPH = [
  'The quick brown fox jumps over the lazy dog while',
  'twelve grey geese wander across the frozen river.',
  'Invoices received after March 15 are paid within',
  'thirty days; questions go to billing@example.com.',
  'Shipment 4471 left the warehouse on Tuesday morning',
  'and should reach the customer before the weekend.',
];

/** A page of prose lines at `size` px, `lineGap` px apart. */
export function proseLines(size = 22, top = 60, left = 40, count = PARAGRAPH.length): TextLineSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    text: PARAGRAPH[i % PARAGRAPH.length],
    x: left,
    y: top + i * size * 1.8,
    size,
  }));
}

export interface InvoiceFields {
  invoice_number: string;
  invoice_date: string;
  vendor_name: string;
  customer_name: string;
  total_amount: number;
  line_items: { description: string; quantity: number; unit_price: number; amount: number }[];
}

export interface DrawnInvoice extends DrawnImage {
  fields: InvoiceFields;
}

/** An invoice with a header, a ruled line-item table and a total, at roughly 150 DPI A5 size. */
export async function makeInvoiceImage(degradation: Degradation = {}): Promise<DrawnInvoice> {
  return drawInvoice(FIRST_INVOICE, degradation);
}

/** A second invoice layout (other vendor, more rows, narrower columns, smaller type), for benchmarks that must not fit one page. */
export async function makeSecondInvoiceImage(degradation: Degradation = {}): Promise<DrawnInvoice> {
  return drawInvoice(SECOND_INVOICE, degradation);
}

interface InvoiceLayout {
  fields: InvoiceFields;
  /** Body type size, px. */
  size: number;
  /** Left edges of the table's columns: description, quantity, unit price, amount; and the right edge. */
  columns: [number, number, number, number, number];
  tableTop: number;
  rowHeight: number;
  width: number;
  height: number;
}

const FIRST_INVOICE: InvoiceLayout = {
  fields: {
    invoice_number: 'INV-2024-0042',
    invoice_date: '2024-03-15',
    vendor_name: 'Acme Supplies',
    customer_name: 'Globex Corporation',
    total_amount: 1234.5,
    line_items: [
      { description: 'Widgets', quantity: 10, unit_price: 12.5, amount: 125 },
      { description: 'Gadgets', quantity: 3, unit_price: 299.5, amount: 898.5 },
      { description: 'Shipping', quantity: 1, unit_price: 211, amount: 211 },
    ],
  },
  size: 20,
  columns: [35, 385, 485, 685, 860],
  tableTop: 240,
  rowHeight: 50,
  width: 900,
  height: 580,
};

const SECOND_INVOICE: InvoiceLayout = {
  fields: {
    invoice_number: 'INV-7731-B',
    invoice_date: '2023-11-02',
    vendor_name: 'Northwind Traders',
    customer_name: 'Initech Ltd',
    total_amount: 2187.9,
    line_items: [
      { description: 'Paper A4', quantity: 40, unit_price: 4.99, amount: 199.6 },
      { description: 'Toner 85X', quantity: 6, unit_price: 61.45, amount: 368.7 },
      { description: 'Desk lamp', quantity: 12, unit_price: 38.9, amount: 466.8 },
      { description: 'Chair mat', quantity: 8, unit_price: 144.1, amount: 1152.8 },
    ],
  },
  size: 17,
  columns: [30, 300, 380, 520, 700],
  tableTop: 220,
  rowHeight: 42,
  width: 740,
  height: 560,
};

/** Draws an invoice layout: vendor and title, three header fields, the ruled item table and the total under it. */
async function drawInvoice(layout: InvoiceLayout, degradation: Degradation): Promise<DrawnInvoice> {
  const { fields, size, columns, tableTop, rowHeight, width, height } = layout;
  const [left, qty, unit, amount, right] = columns;
  const headerSize = Math.round(size * 1.5);
  const text = (x: number): number => x + 15;
  const lines: TextLineSpec[] = [
    { text: fields.vendor_name, x: 40, y: 60, size: headerSize, bold: true },
    { text: 'INVOICE', x: right - 220, y: 60, size: headerSize, bold: true },
    { text: `Invoice Number: ${fields.invoice_number}`, x: 40, y: 60 + size * 3.5, size },
    { text: `Invoice Date: ${fields.invoice_date}`, x: 40, y: 60 + size * 5.25, size },
    { text: `Bill To: ${fields.customer_name}`, x: 40, y: 60 + size * 7, size },
  ];
  // Baselines sit a little below the middle of each row.
  const baseline = (row: number): number => tableTop + row * rowHeight + Math.round(rowHeight * 0.64);
  lines.push(
    { text: 'Description', x: text(left), y: baseline(0), size, bold: true },
    { text: 'Qty', x: text(qty), y: baseline(0), size, bold: true },
    { text: 'Unit Price', x: text(unit), y: baseline(0), size, bold: true },
    { text: 'Amount', x: text(amount), y: baseline(0), size, bold: true },
  );
  const money = (n: number): string =>
    n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  fields.line_items.forEach((item, i) => {
    const y = baseline(i + 1);
    lines.push(
      { text: item.description, x: text(left), y, size },
      { text: String(item.quantity), x: text(qty), y, size },
      { text: money(item.unit_price), x: text(unit), y, size },
      { text: money(item.amount), x: text(amount), y, size },
    );
  });
  const rows = fields.line_items.length + 1;
  lines.push({
    text: `Total Due: $${money(fields.total_amount)}`,
    x: text(unit),
    y: tableTop + rows * rowHeight + 80,
    size: size + 2,
    bold: true,
  });

  const rules: BoxCoordinates[] = [];
  for (let r = 0; r <= rows; r++) rules.push([left, tableTop + r * rowHeight, right, tableTop + r * rowHeight]);
  for (const x of columns) rules.push([x, tableTop, x, tableTop + rows * rowHeight]);

  const drawn = await drawTextImage(lines, { width, height, rules, ...degradation });
  return { ...drawn, fields: structuredClone(fields) };
}

/** The named degradations the benchmark and the accuracy tests run, each on the same prose page. */
export const DEGRADATIONS: Record<string, { size: number; degradation: Degradation }> = {
  clean: { size: 22, degradation: {} },
  small_font: { size: 11, degradation: {} },
  rotated_2deg: { size: 20, degradation: { rotate: 2 } },
  rotated_4deg: { size: 20, degradation: { rotate: -4 } },
  blur: { size: 18, degradation: { blur: 1.4 } },
  noise: { size: 20, degradation: { noise: 40, saltPepper: 0.02 } },
  jpeg_q12: { size: 16, degradation: { jpegQuality: 12 } },
  low_contrast: { size: 20, degradation: { ink: 150, paper: 200, noise: 10 } },
  uneven_light: { size: 20, degradation: { unevenLight: 170, ink: 30 } },
};

/**
 * A second set of degradations, each a near neighbour of one in DEGRADATIONS (another blur sigma,
 * rotation, noise seed, contrast or light), drawn on other prose (VARIANT_PARAGRAPH), so a tuning
 * that fits one image shows up as a difference between the two sets.
 */
export const DEGRADATION_VARIANTS: Record<string, { size: number; degradation: Degradation }> = {
  clean_b: { size: 21, degradation: {} },
  small_font_b: { size: 10, degradation: { seed: 2 } },
  rotated_3deg_b: { size: 20, degradation: { rotate: 3 } },
  rotated_neg1deg_b: { size: 19, degradation: { rotate: -1.2 } },
  blur_1_1_b: { size: 18, degradation: { blur: 1.1 } },
  blur_1_7_b: { size: 20, degradation: { blur: 1.7 } },
  noise_b: { size: 20, degradation: { noise: 35, saltPepper: 0.03, seed: 11 } },
  jpeg_q15_b: { size: 17, degradation: { jpegQuality: 15 } },
  low_contrast_b: { size: 20, degradation: { ink: 140, paper: 190, noise: 12, seed: 5 } },
  uneven_light_b: { size: 20, degradation: { unevenLight: 150, ink: 40 } },
};

const VARIANT_PARAGRAPH = [
  'Order 8812 was packed on Friday and shipped by',
  'express freight; the parcel weighs 3.75 kg and',
  'must be signed for. Call the depot before noon',
  'if the delivery window (9:30 to 17:00) changes.',
  'Refunds of $42.10 or more need a manager, while',
  'smaller ones are approved by the front desk.',
];

function drawProsePage(
  preset: { size: number; degradation: Degradation },
  paragraph: string[] = PARAGRAPH,
): Promise<DrawnImage> {
  const lines = proseLines(preset.size, 40 + preset.size * 2, 40).map((line, i) => ({
    ...line,
    text: paragraph[i % paragraph.length],
  }));
  const width = Math.ceil(preset.size * 30 + 80);
  const height = Math.ceil(lines[lines.length - 1].y + preset.size * 3);
  return drawTextImage(lines, { width, height, ...preset.degradation });
}

/** One prose page with a named degradation from DEGRADATIONS. */
export function makeDegradedPage(name: keyof typeof DEGRADATIONS | string): Promise<DrawnImage> {
  const preset = DEGRADATIONS[name];
  if (!preset) throw new Error(`Unknown degradation ${name}; known: ${Object.keys(DEGRADATIONS).join(', ')}`);
  return drawProsePage(preset);
}

/** One page of the second prose text with a named degradation from DEGRADATION_VARIANTS. */
export function makeVariantPage(name: keyof typeof DEGRADATION_VARIANTS | string): Promise<DrawnImage> {
  const preset = DEGRADATION_VARIANTS[name];
  if (!preset)
    throw new Error(`Unknown degradation variant ${name}; known: ${Object.keys(DEGRADATION_VARIANTS).join(', ')}`);
  return drawProsePage(preset, VARIANT_PARAGRAPH);
}

// ---------- PDFs ----------

export interface PdfPageSpec {
  /** Points; default A4 portrait. */
  width?: number;
  height?: number;
  /** Positions and sizes in points, baseline y from the top. */
  lines: TextLineSpec[];
}

export interface MadePdf {
  pdf: Buffer;
  /** Per page: size in points and each word's box in points, top-left origin. */
  pages: { width: number; height: number; words: DrawnWord[] }[];
}

/** Scales word boxes from PDF points to the pixels of a page rendered at `dpi`. */
export function wordsAtDpi(words: DrawnWord[], dpi: number): DrawnWord[] {
  const s = dpi / 72;
  return words.map((w) => ({ text: w.text, bbox: [w.bbox[0] * s, w.bbox[1] * s, w.bbox[2] * s, w.bbox[3] * s] }));
}

/** A PDF whose pages carry a real text layer (Helvetica), with the drawn words' boxes. */
export async function makeTextPdf(pages: PdfPageSpec[]): Promise<MadePdf> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const made: MadePdf['pages'] = [];
  for (const spec of pages) {
    const width = spec.width ?? 595;
    const height = spec.height ?? 842;
    const page = doc.addPage([width, height]);
    const words: DrawnWord[] = [];
    for (const line of spec.lines) {
      page.drawText(line.text, { x: line.x, y: height - line.y, size: line.size, font, color: rgb(0, 0, 0) });
      let searchFrom = 0;
      for (const word of line.text.split(/\s+/).filter(Boolean)) {
        const start = line.text.indexOf(word, searchFrom);
        searchFrom = start + word.length;
        const x1 = line.x + font.widthOfTextAtSize(line.text.slice(0, start), line.size);
        const x2 = x1 + font.widthOfTextAtSize(word, line.size);
        words.push({ text: word, bbox: [x1, line.y - line.size * 0.72, x2, line.y + line.size * 0.21] });
      }
    }
    made.push({ width, height, words });
  }
  return { pdf: Buffer.from(await doc.save()), pages: made };
}

/** A PDF with one image-only page (no text layer) holding `image` scaled to `widthPt`×`heightPt`. */
export async function makeScannedPdf(
  image: DrawnImage,
  widthPt = image.width * 0.72,
  heightPt = image.height * 0.72,
): Promise<MadePdf> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([widthPt, heightPt]);
  const embedded = image.mimeType === 'image/png' ? await doc.embedPng(image.image) : await doc.embedJpg(image.image);
  page.drawImage(embedded, { x: 0, y: 0, width: widthPt, height: heightPt });
  const sx = widthPt / image.width;
  const sy = heightPt / image.height;
  const words = image.words.map((w) => ({
    text: w.text,
    bbox: [w.bbox[0] * sx, w.bbox[1] * sy, w.bbox[2] * sx, w.bbox[3] * sy] as BoxCoordinates,
  }));
  return { pdf: Buffer.from(await doc.save()), pages: [{ width: widthPt, height: heightPt, words }] };
}

/** Intersection over union of two boxes. */
export function boxIou(a: BoxCoordinates, b: BoxCoordinates): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}
