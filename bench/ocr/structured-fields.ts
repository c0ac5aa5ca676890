/**
 * Structured OCR accuracy: public invoices and receipts (bench/ocr/structured/SOURCES.md), each read by
 * the gateway's local OCR engine and filled from one schema (vendor, invoice number, date, total,
 * currency) by the rule-based extractor; each value is scored against the hand-checked one in
 * bench/ocr/structured/documents.json. A document is read from the first folder that has its file:
 * $SWITCHYARD_OCR_STRUCTURED_DIR, shared/ocr-structured beside the repository, bench/ocr/structured.
 *   npx tsx bench/ocr/structured-fields.ts [--cache <dir>] [--pages]
 * --cache keeps each document's OCR result there, so a second run measures the extractor alone.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractBySchema } from '../../gateway/src/core/ocr/extract-by-schema.js';
import type { OcrResult } from '../../gateway/src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../gateway/src/providers/contracts/provider-instance.js';

const here = path.dirname(new URL(import.meta.url).pathname);

interface Document {
  file: string;
  type: string;
  source: string;
  /** Hand-checked values; null where the document has none (then null is the right answer). */
  fields: Record<string, string | number | null>;
}

export const STRUCTURED_SCHEMA = {
  type: 'object',
  properties: {
    vendor: { type: 'string', description: 'The seller, vendor or merchant' },
    invoice_number: { type: 'string' },
    date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'The total amount due' },
    currency: { type: 'string', description: 'ISO 4217 code' },
  },
};

export function structuredFolders(): string[] {
  return [
    process.env.SWITCHYARD_OCR_STRUCTURED_DIR,
    path.join(here, '../../../shared/ocr-structured'),
    path.join(here, 'structured'),
  ].filter((dir): dir is string => dir !== undefined && dir !== '');
}

const letters = (value: string): string => value.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Whether an extracted value is the hand-checked one: numbers to the cent, a vendor when either name holds the other, other text bar case and punctuation. */
function matches(field: string, expected: string | number | null, actual: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 0.005;
  if (typeof actual !== 'string' || actual === '') return false;
  const [want, got] = [letters(expected), letters(actual)];
  if (field === 'vendor') return got.includes(want) || (got.length >= 3 && want.includes(got));
  return want === got;
}

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

async function recognise(provider: ProviderInstance, file: string, cache: string | undefined): Promise<OcrResult> {
  const cached = cache && path.join(cache, `${path.basename(file)}.json`);
  if (cached && existsSync(cached)) return JSON.parse(await readFile(cached, 'utf8')) as OcrResult;
  const result = await provider.capabilities.ocr!.ocr({
    model: 'bench',
    document: await readFile(file),
    mimeType: MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    signal: new AbortController().signal,
  });
  if (cached) await writeFile(cached, JSON.stringify(result));
  return result;
}

export interface FieldAccuracy {
  type: string;
  field: string;
  right: number;
  /** Filled with a value that is not the document's (null is not counted here). */
  wrong: number;
  total: number;
}

/** Field accuracy per document type of the rule-based extractor over the documents found; prints a table. */
export async function measureStructuredFields(
  provider: ProviderInstance,
  options: { cache?: string; perPage?: boolean } = {},
): Promise<FieldAccuracy[]> {
  const documents = JSON.parse(await readFile(path.join(here, 'structured/documents.json'), 'utf8')) as Document[];
  if (options.cache) await mkdir(options.cache, { recursive: true });
  const tally = new Map<string, FieldAccuracy>();
  let found = 0;
  for (const document of documents) {
    const file = structuredFolders()
      .map((dir) => path.join(dir, document.file))
      .find((candidate) => existsSync(candidate));
    if (!file) continue;
    found++;
    const { data } = await extractBySchema(
      STRUCTURED_SCHEMA,
      await recognise(provider, file, options.cache),
      new AbortController().signal,
    );
    const wrong: string[] = [];
    for (const [field, expected] of Object.entries(document.fields)) {
      const key = `${document.type}/${field}`;
      const entry = tally.get(key) ?? { type: document.type, field, right: 0, wrong: 0, total: 0 };
      entry.total++;
      if (matches(field, expected, data[field])) entry.right++;
      else {
        if (data[field] !== null && data[field] !== undefined) entry.wrong++;
        wrong.push(`${field}: ${JSON.stringify(data[field])} (want ${JSON.stringify(expected)})`);
      }
      tally.set(key, entry);
    }
    if (options.perPage) console.log(`${document.file.padEnd(36)} ${wrong.length ? wrong.join('; ') : 'all right'}`);
  }
  if (found < documents.length) {
    console.log(
      `(structured OCR: ${documents.length - found} of ${documents.length} documents not found in ${structuredFolders().join(', ')}; see bench/ocr/structured/SOURCES.md)`,
    );
  }
  const rows = [...tally.values()];
  if (rows.length === 0) return rows;
  console.log(
    `\nStructured OCR field accuracy, rule-based extractor, ${found} documents (values hand-checked; a field the document lacks is right when null).\n`,
  );
  console.log(`${'type'.padEnd(10)} ${'field'.padEnd(16)} ${'right'.padEnd(14)} wrong value (not null)`);
  for (const type of [...new Set(rows.map((r) => r.type))]) {
    const ofType = rows.filter((r) => r.type === type);
    const line = (field: string, right: number, wrong: number, total: number) =>
      console.log(
        `${type.padEnd(10)} ${field.padEnd(16)} ${`${right}/${total} (${((100 * right) / total).toFixed(0)} %)`.padEnd(14)} ${wrong}`,
      );
    for (const row of ofType) line(row.field, row.right, row.wrong, row.total);
    const sum = (pick: (row: FieldAccuracy) => number) => ofType.reduce((total, row) => total + pick(row), 0);
    line(
      'all fields',
      sum((r) => r.right),
      sum((r) => r.wrong),
      sum((r) => r.total),
    );
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { createTesseractProvider } =
    await import('../../gateway/src/providers/tesseract/create-tesseract-provider.js');
  const { probeNativeTesseract } = await import('../../gateway/src/providers/tesseract/native-engine.js');
  const args = process.argv.slice(2);
  const at = args.indexOf('--cache');
  const engine = (await probeNativeTesseract('tesseract')) ? 'native' : 'wasm';
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const provider = createTesseractProvider({
    id: 'bench-structured',
    options: { type: 'tesseract', engine, workers: 2 },
    dataDir: tmpdir(),
    logger,
  });
  try {
    await measureStructuredFields(provider, {
      cache: at >= 0 ? args[at + 1] : undefined,
      perPage: args.includes('--pages'),
    });
  } finally {
    await provider.close();
  }
}
