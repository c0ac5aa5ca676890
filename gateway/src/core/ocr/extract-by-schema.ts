import type { BoxCoordinates, OcrResult } from '../../providers/contracts/ocr.js';
import { amountsIn, coerceValue, parseDate, schemaType, type PropertySchema } from './coerce-value.js';
import { extractTableRows } from './extract-table-rows.js';
import { GENERIC_TOKENS } from './label-tokens.js';
import { fieldLabel, labelScore, type FieldLabel } from './match-label.js';

interface DocLine {
  text: string;
  bbox: BoxCoordinates;
  page: number;
}

/** A field left null, and why. */
export interface MissingField {
  field: string;
  reason: string;
}

export interface SchemaExtraction {
  data: Record<string, unknown>;
  /** Dotted paths of required properties that were not found. */
  missingRequired: string[];
  /** Every field left null (dotted path) with the reason. */
  missing: MissingField[];
}

const MIN_SCORE = 0.5;

/** Where a line's value may sit when it is not after the label: the nearest line to the right, then below. */
function neighbourValues(line: DocLine, lines: DocLine[]): string[] {
  const height = line.bbox[3] - line.bbox[1];
  const centre = (l: DocLine): number => (l.bbox[1] + l.bbox[3]) / 2;
  const right = lines
    .filter((l) => l.page === line.page && l !== line && Math.abs(centre(l) - centre(line)) < height / 2 && l.bbox[0] >= line.bbox[2] - 2)
    .sort((a, b) => a.bbox[0] - b.bbox[0]);
  const below = lines
    .filter(
      (l) =>
        l.page === line.page &&
        l.bbox[1] >= line.bbox[3] - 2 &&
        l.bbox[1] - line.bbox[3] < 3 * height &&
        l.bbox[0] < line.bbox[2] &&
        l.bbox[2] > line.bbox[0],
    )
    .sort((a, b) => a.bbox[1] - b.bbox[1]);
  return [right[0], below[0]].filter((l): l is DocLine => l !== undefined).map((l) => l.text);
}

/** Candidate (label, value) splits of a line: at a colon, else after its first one to four words. */
function splits(text: string): { label: string; value: string; colon: boolean }[] {
  const colon = text.indexOf(':');
  if (colon > 0) return [{ label: text.slice(0, colon), value: text.slice(colon + 1), colon: true }];
  const words = text.split(/\s+/);
  const out = [{ label: text, value: '', colon: false }];
  for (let k = 1; k < words.length && k <= 4; k++) out.push({ label: words.slice(0, k).join(' '), value: words.slice(k).join(' '), colon: false });
  return out;
}

interface Found {
  value: unknown;
  /** Whether any line read as the field's label, found value or not. */
  labelled: boolean;
}

/** The best-labelled value for one field among the lines, coerced to its schema (undefined when none is). */
function findValue(field: FieldLabel, schema: PropertySchema, name: string, lines: DocLine[]): Found {
  let best: { score: number; value: unknown } | undefined;
  let labelled = false;
  const numeric = schemaType(schema) === 'number' || schemaType(schema) === 'integer';
  for (const line of lines) {
    for (const split of splits(line.text)) {
      let score = labelScore(split.label, field);
      if (score < MIN_SCORE || (best && score + 0.1 <= best.score)) continue;
      labelled = true;
      let value = coerceValue(split.value, schema, name);
      if (value !== undefined) {
        score += split.colon ? 0.1 : 0.05;
        // "Summe 0,47 6,69 7,16" is a row of a tax table; "Summe EUR 7,16" is the total.
        if (numeric && amountsIn(split.value).length > 1) score -= 0.15;
      } else {
        for (const text of neighbourValues(line, lines)) {
          value = coerceValue(text, schema, name);
          if (value !== undefined) break;
        }
      }
      if (value !== undefined && (!best || score > best.score)) best = { score, value };
    }
  }
  return { value: best?.value, labelled };
}

const VENDOR_WORDS = new Set(['vendor', 'merchant', 'seller', 'supplier', 'issuer', 'store', 'shop', 'company']);
/** A company name ending in its legal form; the name is at most five words before it. */
const LEGAL_NAME = /(?<![\p{L}\p{N}&.'-])((?:[\p{L}\p{N}&.'-]{1,40} ){1,5}(?:GmbH(?: & Co\.? KG)?|AG|KG|B\.V\.|N\.V\.|Ltd\.?|Limited|Inc\.?|LLC|S\.A\.S?|SARL|S\.r\.l\.|Pvt\.? Ltd\.?|plc))(?![\p{L}])/u;

const CURRENCIES: [RegExp, string][] = [
  [/€|\beur(o|os)?\b/i, 'EUR'],
  [/\busd\b|us\$|\$/i, 'USD'],
  [/£|\bgbp\b/i, 'GBP'],
  [/₹|\binr\b|\brs\.?\s?\d/i, 'INR'],
  [/\bchf\b/i, 'CHF'],
  [/¥|\bjpy\b/i, 'JPY'],
];

/** The currency the document is written in (ISO 4217): the code or sign it uses most. */
function documentCurrency(lines: DocLine[]): string | undefined {
  let best: { code: string; count: number } | undefined;
  for (const [pattern, code] of CURRENCIES) {
    const count = lines.filter((line) => pattern.test(line.text)).length;
    if (count > 0 && (!best || count > best.count)) best = { code, count };
  }
  return best?.code;
}

/**
 * Without a label, a few fields still have a place on every invoice or receipt: its date is the first
 * date written on it, its currency the one it uses, its vendor the first company named with its legal
 * form. (A vendor is not guessed from the letterhead: on the benchmark's documents the first line was
 * the customer, a street or a logo misread as often as not.)
 */
function unlabelledValue(name: string, schema: PropertySchema, lines: DocLine[]): unknown {
  const type = schemaType(schema);
  const tokens = fieldLabel(name).tokens;
  if (type === 'string' && (schema.format === 'date' || tokens.at(-1) === 'date') && tokens.length <= 2) {
    for (const line of lines) {
      const date = parseDate(line.text);
      if (date) return date;
    }
  }
  if (type === 'string' && tokens.includes('currency')) {
    return documentCurrency(lines);
  }
  if (type === 'string' && tokens.some((t) => VENDOR_WORDS.has(t))) {
    // The company that issued it: the first name with a legal form ("Hornbach Baumarkt AG", "Coolblue B.V.").
    for (const line of lines) {
      const company = LEGAL_NAME.exec(line.text);
      if (company) return company[1].trim();
    }
  }
  return undefined;
}

function extractObject(
  schema: PropertySchema,
  result: OcrResult,
  lines: DocLine[],
  context: FieldLabel | undefined,
  path: string,
  missing: string[],
  reasons: MissingField[],
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    let field = fieldLabel(name);
    // "name" inside "vendor" means the vendor's name.
    if (context && field.tokens.every((t) => GENERIC_TOKENS.has(t))) {
      field = { tokens: [...context.tokens, ...field.tokens], groups: [...context.groups, ...field.groups] };
    }
    const type = schemaType(property);
    let value: unknown;
    let labelled = false;
    if (type === 'object') {
      value = extractObject(property, result, lines, field, `${path}${name}.`, missing, reasons);
    } else if (type === 'array') {
      value = property.items && schemaType(property.items) === 'object' ? extractTableRows(result.pages, property.items) : null;
      if (value === null && property.items) {
        const single = findValue(field, property.items, name, lines);
        labelled = single.labelled;
        value = single.value === undefined ? null : [single.value];
      }
    } else {
      const found = findValue(field, property, name, lines);
      ({ value, labelled } = found);
      if (value === undefined && property.description) {
        const described = findValue(fieldLabel(property.description), property, name, lines);
        value = described.value;
        labelled ||= described.labelled;
      }
      if (value === undefined) value = unlabelledValue(name, property, lines);
    }
    data[name] = value ?? null;
    if (value === undefined || value === null) {
      const words = field.tokens.join(' ');
      reasons.push({
        field: `${path}${name}`,
        reason: labelled
          ? `a line is labelled "${words}", but no ${type === 'string' ? 'text' : type} value of the schema's kind is beside or below it`
          : `no line of the document is labelled "${words}"${property.description ? ` or "${property.description}"` : ''}, and no ${words} was found without a label`,
      });
      if (required.has(name)) missing.push(`${path}${name}`);
    }
  }
  return data;
}

/**
 * Fills a JSON schema from recognised text without a language model: each property's name (split
 * into words, matched with synonyms such as total/amount due, number/no./#) is looked for as a label
 * in the lines (`Label: value`, or the value to its right or below), and the value is coerced to the
 * property's type. Arrays of objects are read from tables whose header names the item's properties.
 * A date or a currency with no label is the first date written on the document, the currency it uses. What is not found is null, listed in `missing` with the
 * reason; required properties that are null are also listed in `missingRequired`.
 */
export function extractBySchema(schema: Record<string, unknown>, result: OcrResult): SchemaExtraction {
  const lines: DocLine[] = result.pages.flatMap((page) =>
    page.blocks.flatMap((block) => block.lines.map((line) => ({ text: line.text, bbox: line.bbox, page: page.index }))),
  );
  const missingRequired: string[] = [];
  const missing: MissingField[] = [];
  const data = extractObject(schema as PropertySchema, result, lines, undefined, '', missingRequired, missing);
  return { data, missingRequired, missing };
}
