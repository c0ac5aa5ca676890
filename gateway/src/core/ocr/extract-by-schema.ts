import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BoxCoordinates, OcrResult } from '../../providers/contracts/ocr.js';
import { amountsIn, coerceValue, parseDate, schemaType, type PropertySchema } from './coerce-value.js';
import { extractTableRows, type Pace } from './extract-table-rows.js';
import { GENERIC_TOKENS, labelTokens } from './label-tokens.js';
import { fieldLabel, labelTokensScore, type FieldLabel } from './match-label.js';

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

/** A candidate (label, value) reading of a line, its label already in tokens. */
interface Split {
  label: readonly string[];
  value: string;
  colon: boolean;
}

/** The document's lines as every field is looked for in them: each line's splits and neighbours worked out once, not once per field. */
interface Lines {
  all: DocLine[];
  splits: Map<DocLine, Split[]>;
  neighbourValues(line: DocLine): string[];
  pace: Pace;
}

/**
 * Label comparisons between two turns of the event loop: the work grows with fields × lines, both the
 * client's (a schema of 1,000 fields over 2,000 lines takes seconds), so other requests are served
 * in between and a request that is cancelled stops.
 */
const COMPARISONS_PER_TURN = 10_000;

const MIN_SCORE = 0.5;

/** Where a line's value may sit when it is not after the label: the nearest line to the right, then below. */
function findNeighbourValues(line: DocLine, pageLines: DocLine[]): string[] {
  const height = line.bbox[3] - line.bbox[1];
  const centre = (l: DocLine): number => (l.bbox[1] + l.bbox[3]) / 2;
  let right: DocLine | undefined;
  let below: DocLine | undefined;
  for (const l of pageLines) {
    if (
      l !== line &&
      Math.abs(centre(l) - centre(line)) < height / 2 &&
      l.bbox[0] >= line.bbox[2] - 2 &&
      (!right || l.bbox[0] < right.bbox[0])
    )
      right = l;
    if (
      l.bbox[1] >= line.bbox[3] - 2 &&
      l.bbox[1] - line.bbox[3] < 3 * height &&
      l.bbox[0] < line.bbox[2] &&
      l.bbox[2] > line.bbox[0] &&
      (!below || l.bbox[1] < below.bbox[1])
    )
      below = l;
  }
  return [right, below].filter((l): l is DocLine => l !== undefined).map((l) => l.text);
}

/** Candidate (label, value) splits of a line: at a colon, else after its first one to four words. */
function splits(text: string): Split[] {
  const colon = text.indexOf(':');
  if (colon > 0) return [{ label: labelTokens(text.slice(0, colon)), value: text.slice(colon + 1), colon: true }];
  const words = text.split(/\s+/);
  const out = [{ label: labelTokens(text), value: '', colon: false }];
  for (let k = 1; k < words.length && k <= 4; k++)
    out.push({ label: labelTokens(words.slice(0, k).join(' ')), value: words.slice(k).join(' '), colon: false });
  return out;
}

/**
 * The lines with their splits, and their neighbours found on first need and kept: looked for once per
 * field, a neighbour search over every line of the page made extraction quadratic in the lines for each
 * field (2,000 lines and 10 fields: 4.9 s on the event loop).
 */
function indexLines(all: DocLine[], signal: AbortSignal): Lines {
  const byPage = new Map<number, DocLine[]>();
  for (const line of all) {
    const page = byPage.get(line.page);
    if (page) page.push(line);
    else byPage.set(line.page, [line]);
  }
  const neighbours = new Map<DocLine, string[]>();
  let sinceTurn = 0;
  const pace: Pace = (comparisons) => {
    sinceTurn += comparisons;
    if (sinceTurn < COMPARISONS_PER_TURN) return undefined;
    sinceTurn = 0;
    return nextTurn().then(() => signal.throwIfAborted());
  };
  return {
    all,
    splits: new Map(all.map((line) => [line, splits(line.text)])),
    neighbourValues(line) {
      let found = neighbours.get(line);
      if (!found) {
        const pageLines = byPage.get(line.page) ?? [];
        neighbours.set(line, (found = findNeighbourValues(line, pageLines)));
        // A line's look at another costs about a quarter of a label comparison.
        sinceTurn += pageLines.length / 4;
      }
      return found;
    },
    pace,
  };
}

interface Found {
  value: unknown;
  /** Whether any line read as the field's label, found value or not. */
  labelled: boolean;
}

/** The best-labelled value for one field among the lines, coerced to its schema (undefined when none is). */
async function findValue(field: FieldLabel, schema: PropertySchema, name: string, lines: Lines): Promise<Found> {
  let best: { score: number; value: unknown } | undefined;
  let labelled = false;
  const numeric = schemaType(schema) === 'number' || schemaType(schema) === 'integer';
  for (const line of lines.all) {
    const lineSplits = lines.splits.get(line) ?? [];
    const turn = lines.pace(lineSplits.length);
    if (turn) await turn;
    for (const split of lineSplits) {
      let score = labelTokensScore(split.label, field);
      if (score < MIN_SCORE || (best && score + 0.1 <= best.score)) continue;
      labelled = true;
      let value = coerceValue(split.value, schema, name);
      if (value !== undefined) {
        score += split.colon ? 0.1 : 0.05;
        // "Summe 0,47 6,69 7,16" is a row of a tax table; "Summe EUR 7,16" is the total.
        if (numeric && amountsIn(split.value).length > 1) score -= 0.15;
      } else {
        for (const text of lines.neighbourValues(line)) {
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
const LEGAL_NAME =
  /(?<![\p{L}\p{N}&.'-])((?:[\p{L}\p{N}&.'-]{1,40} ){1,5}(?:GmbH(?: & Co\.? KG)?|AG|KG|B\.V\.|N\.V\.|Ltd\.?|Limited|Inc\.?|LLC|S\.A\.S?|SARL|S\.r\.l\.|Pvt\.? Ltd\.?|plc))(?![\p{L}])/u;

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

async function extractObject(
  schema: PropertySchema,
  result: OcrResult,
  lines: Lines,
  context: FieldLabel | undefined,
  path: string,
  missing: string[],
  reasons: MissingField[],
): Promise<Record<string, unknown>> {
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
      value = await extractObject(property, result, lines, field, `${path}${name}.`, missing, reasons);
    } else if (type === 'array') {
      value =
        property.items && schemaType(property.items) === 'object'
          ? await extractTableRows(result.pages, property.items, lines.pace)
          : null;
      if (value === null && property.items) {
        const single = await findValue(field, property.items, name, lines);
        labelled = single.labelled;
        value = single.value === undefined ? null : [single.value];
      }
    } else {
      const found = await findValue(field, property, name, lines);
      ({ value, labelled } = found);
      if (value === undefined && property.description) {
        const described = await findValue(fieldLabel(property.description), property, name, lines);
        value = described.value;
        labelled ||= described.labelled;
      }
      if (value === undefined) value = unlabelledValue(name, property, lines.all);
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
export async function extractBySchema(
  schema: Record<string, unknown>,
  result: OcrResult,
  signal: AbortSignal,
): Promise<SchemaExtraction> {
  const lines: DocLine[] = result.pages.flatMap((page) =>
    page.blocks.flatMap((block) => block.lines.map((line) => ({ text: line.text, bbox: line.bbox, page: page.index }))),
  );
  const missingRequired: string[] = [];
  const missing: MissingField[] = [];
  const data = await extractObject(
    schema as PropertySchema,
    result,
    indexLines(lines, signal),
    undefined,
    '',
    missingRequired,
    missing,
  );
  return { data, missingRequired, missing };
}
