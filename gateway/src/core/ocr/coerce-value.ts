const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];


/** A written amount: `1,234.50`, `1.234,50`, `1 234,50` (thousands in groups of three) or `42.50`, `12`. */
const AMOUNT = /(\(?-?)\s*([$€£¥₹])?\s*(\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,3})?(?!\d))/g;
/** Dates and times, whose digits are never an amount: `2026-11`, `02.03.2020`, `14:52`. */
const NOT_AMOUNT = /\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?/g;

function amountValue(digits: string): number {
  let text = digits.replace(/[' ]/g, '');
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma > lastDot && text.length - lastComma - 1 !== 3) {
    // European: the comma is the decimal separator.
    text = text.replace(/\./g, '').replace(',', '.');
  } else if (lastDot > lastComma && text.length - lastDot - 1 === 3 && lastComma < 0 && (text.match(/\./g) ?? []).length > 1) {
    text = text.replace(/\./g, '');
  } else {
    text = text.replace(/,/g, '');
  }
  return Number(text);
}

/** The amounts written in a text (dates and times aside), each with whether it has cents or a currency sign. */
export function amountsIn(text: string): { value: number; money: boolean }[] {
  const blocked = [...text.matchAll(NOT_AMOUNT)].map((m) => [m.index, m.index + m[0].length]);
  const out: { value: number; money: boolean }[] = [];
  for (const match of text.matchAll(AMOUNT)) {
    const at = match.index + match[0].indexOf(match[3]);
    if (blocked.some(([from, to]) => at < to && at + match[3].length > from)) continue;
    const value = amountValue(match[3]);
    if (!Number.isFinite(value)) continue;
    const negative = match[1].includes('-') || match[1].includes('(');
    out.push({ value: negative ? -value : value, money: match[2] !== undefined || /[.,]\d{2}$/.test(match[3]) });
  }
  return out;
}

/**
 * A number from text such as `$1,234.50`, `1.234,50 €`, `(12.00)` or `-3`: the first amount with cents
 * or a currency sign, else the first number, never the digits of a date or a time; null when there is none.
 */
export function parseNumber(text: string): number | null {
  const amounts = amountsIn(text);
  return (amounts.find((a) => a.money) ?? amounts[0])?.value ?? null;
}

const pad = (n: number): string => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** An ISO date (YYYY-MM-DD) from common written forms (`02.03.2020` and `02-03-20` are day first, `3/2/2020` month first); null when none is found. */
export function parseDate(text: string): string | null {
  const iso = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/.exec(text);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = /(?<!\d)(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?!\d)/.exec(text);
  if (numeric) {
    let [month, day] = [Number(numeric[1]), Number(numeric[3])];
    // Slashes are month first (US) unless that is impossible; dots and dashes are day first.
    if (numeric[2] !== '/' || month > 12) [month, day] = [day, month];
    const year = numeric[4].length === 2 ? 2000 + Number(numeric[4]) : Number(numeric[4]);
    return isoDate(year, month, day);
  }
  const monthName = MONTHS.join('|');
  const dayMonth = new RegExp(`(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(${monthName})[a-zä]*\\.?,?\\s+(\\d{4})`, 'i').exec(text);
  if (dayMonth) return isoDate(Number(dayMonth[3]), MONTHS.indexOf(dayMonth[2].toLowerCase()) + 1, Number(dayMonth[1]));
  const monthDay = new RegExp(`(${monthName})[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})`, 'i').exec(text);
  if (monthDay) return isoDate(Number(monthDay[3]), MONTHS.indexOf(monthDay[1].toLowerCase()) + 1, Number(monthDay[2]));
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
  const trimmed = text.trim().replace(/^[:#\-–\s]+/, '').trim();
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
      if (schema.format === 'date' || schema.format === 'date-time' || /(^|_|\b)date$/i.test(name)) return parseDate(trimmed) ?? undefined;
      // An identifier (invoice number, order id) is the first word with a digit in it, never a sentence.
      if (IDENTIFIER.test(name)) return trimmed.split(/\s+/).find((word) => /\d/.test(word))?.replace(/[.,;]$/, '');
      return trimmed;
    }
  }
}

export { schemaType };
