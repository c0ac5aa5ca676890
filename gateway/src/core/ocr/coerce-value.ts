/** Month names by how they start, in English, German, French and Dutch (`juin` before `jun`, `mär` and `maa` are March). */
const MONTH_PREFIXES: [string, number][] = [
  ['janv', 1],
  ['jan', 1],
  ['feb', 2],
  ['fév', 2],
  ['fev', 2],
  ['mär', 3],
  ['maa', 3],
  ['mars', 3],
  ['mar', 3],
  ['avr', 4],
  ['apr', 4],
  ['may', 5],
  ['mai', 5],
  ['mei', 5],
  ['juin', 6],
  ['juil', 7],
  ['jun', 6],
  ['jul', 7],
  ['aug', 8],
  ['aoû', 8],
  ['aou', 8],
  ['sep', 9],
  ['oct', 10],
  ['okt', 10],
  ['nov', 11],
  ['dec', 12],
  ['déc', 12],
  ['dez', 12],
];

const monthOf = (word: string): number | undefined =>
  MONTH_PREFIXES.find(([prefix]) => word.toLowerCase().startsWith(prefix))?.[1];

/** A written amount: `1,234.50`, `1.234,50`, `1 234,50` (thousands in groups of three) or `42.50`, `12`. */
const AMOUNT = /\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,3})?(?!\d)/g;
/** What may stand just before an amount: a minus or an opening parenthesis, a currency sign (read on a few characters, so a long run of spaces costs nothing). */
const AMOUNT_PREFIX = /(\(?-?) ?([$€£¥₹])? ?$/;
/** Dates and times, whose digits are never an amount: `2026-11`, `02.03.2020`, `14:52`. */
const NOT_AMOUNT = /\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?/g;

function amountValue(digits: string): number {
  let text = digits.replace(/[' ]/g, '');
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma > lastDot && text.length - lastComma - 1 !== 3) {
    // European: the comma is the decimal separator.
    text = text.replace(/\./g, '').replace(',', '.');
  } else if (
    lastDot > lastComma &&
    text.length - lastDot - 1 === 3 &&
    lastComma < 0 &&
    (text.match(/\./g) ?? []).length > 1
  ) {
    text = text.replace(/\./g, '');
  } else {
    text = text.replace(/,/g, '');
  }
  return Number(text);
}

/** The amounts written in a text (dates and times aside), each with whether it has cents or a currency sign. */
export function amountsIn(written: string): { value: number; money: boolean }[] {
  // OCR often reads "134,39" as "134, 39".
  const text = written.replace(/(\d[,.]) (\d{2})(?!\d)/g, '$1$2');
  const blocked = [...text.matchAll(NOT_AMOUNT)].map((m) => [m.index, m.index + m[0].length]);
  const out: { value: number; money: boolean }[] = [];
  let next = 0;
  for (const match of text.matchAll(AMOUNT)) {
    const [at, end] = [match.index, match.index + match[0].length];
    // Both lists run left to right, so one pass over the blocked spans serves every amount.
    while (next < blocked.length && blocked[next][1] <= at) next++;
    if (next < blocked.length && blocked[next][0] < end) continue;
    const value = amountValue(match[0]);
    if (!Number.isFinite(value)) continue;
    const prefix = AMOUNT_PREFIX.exec(text.slice(Math.max(0, at - 4), at)) ?? ['', '', undefined];
    const negative = prefix[1].includes('-') || prefix[1].includes('(');
    out.push({ value: negative ? -value : value, money: prefix[2] !== undefined || /[.,]\d{2}$/.test(match[0]) });
  }
  return out;
}

/**
 * A number from text such as `$1,234.50`, `1.234,50 €`, `(12.00)` or `-3`: the first amount with cents
 * or a currency sign, else the first number (the last of a row of amounts alone), never the digits of
 * a date or a time; null when there is none.
 */
export function parseNumber(text: string): number | null {
  const amounts = amountsIn(text);
  const money = amounts.filter((a) => a.money);
  // A row of amounts ("24.99 5.00 29.99": net, tax, gross) totals in its last column.
  const first = /\d/.exec(text)?.index ?? 0;
  if (money.length > 1 && AMOUNTS_ONLY.test(text.slice(first))) return money[money.length - 1].value;
  return (money[0] ?? amounts[0])?.value ?? null;
}

const AMOUNTS_ONLY = /^[\s\d.,'()$€£¥₹*-]*(?:\b(?:eur|usd|gbp|chf|inr)\b[\s\d.,'()$€£¥₹*-]*)*$/i;

const pad = (n: number): string => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** An ISO date (YYYY-MM-DD) from common written forms (`02.03.2020` and `02-03-20` are day first, `3/2/2020` month first); null when none is found. */
export function parseDate(text: string): string | null {
  const iso = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  // OCR may read "04.04.2020" as "04.04. 2020".
  const numeric = /(?<!\d)(\d{1,2})([-/.]) ?(\d{1,2})\2 ?(\d{4}|\d{2})(?!\d)/.exec(text);
  if (numeric) {
    let [month, day] = [Number(numeric[1]), Number(numeric[3])];
    // Slashes are month first (US) unless that is impossible; dots and dashes are day first.
    if (numeric[2] !== '/' || month > 12) [month, day] = [day, month];
    const year = numeric[4].length === 2 ? 2000 + Number(numeric[4]) : Number(numeric[4]);
    return isoDate(year, month, day);
  }
  for (const match of text.matchAll(
    /(?<!\d)(\d{1,2})(?:st|nd|rd|th|er)?\.?\s{1,3}(\p{L}{3,9})\.?,?\s{1,3}(\d{4})(?!\d)/gu,
  )) {
    const month = monthOf(match[2]);
    if (month) return isoDate(Number(match[3]), month, Number(match[1]));
  }
  for (const match of text.matchAll(
    /(?<!\p{L})(\p{L}{3,9})\.?\s{1,3}(\d{1,2})(?:st|nd|rd|th)?\s{0,2},?\s{1,3}(\d{4})(?!\d)/gu,
  )) {
    const month = monthOf(match[1]);
    if (month) return isoDate(Number(match[3]), month, Number(match[2]));
  }
  return null;
}

const IDENTIFIER = /(number|_no|_nr|_id|^id|_ref|reference|_code)$/i;

export interface PropertySchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
  required?: string[];
}

function schemaType(schema: PropertySchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return 'string';
}

/** Converts a found value text to the schema's type; undefined when the text does not hold one. */
export function coerceValue(text: string, schema: PropertySchema, name = ''): unknown {
  const trimmed = text
    .trim()
    .replace(/^[:#\-–\s]+/, '')
    .trim();
  if (!trimmed) return undefined;
  if (schema.enum) {
    const lower = trimmed.toLowerCase();
    return schema.enum.find((option) => lower.includes(String(option).toLowerCase()));
  }
  switch (schemaType(schema)) {
    case 'number':
      return parseNumber(trimmed) ?? undefined;
    case 'integer': {
      const value = parseNumber(trimmed);
      return value === null ? undefined : Math.round(value);
    }
    case 'boolean': {
      if (/^(yes|y|true|paid|x|✓|✔|checked|on)\b/i.test(trimmed)) return true;
      if (/^(no|n|false|unpaid|none|off)\b/i.test(trimmed)) return false;
      return undefined;
    }
    default: {
      if (schema.format === 'date' || schema.format === 'date-time' || /(^|_|\b)date$/i.test(name))
        return parseDate(trimmed) ?? undefined;
      // An identifier (invoice number, order id) is the first word with a digit in it, never a sentence.
      if (IDENTIFIER.test(name))
        return trimmed
          .split(/\s+/)
          .find((word) => /\d/.test(word))
          ?.replace(/^(n[°º]|no\.|nr\.|#)/i, '')
          .replace(/[.,;]$/, '');
      return trimmed;
    }
  }
}

export { schemaType };
