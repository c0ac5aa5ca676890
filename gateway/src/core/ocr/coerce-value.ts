const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A number from text such as `$1,234.50`, `1.234,50 €`, `(12.00)` or `-3`; null when there is none. */
export function parseNumber(text: string): number | null {
  const match = /(\(?-?)\s*[$€£¥]?\s*(\d[\d,.' ]*\d|\d)/.exec(text);
  if (!match) return null;
  let digits = match[2].replace(/[' ]/g, '');
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  if (lastComma > lastDot && digits.length - lastComma - 1 !== 3) {
    // European: the comma is the decimal separator.
    digits = digits.replace(/\./g, '').replace(',', '.');
  } else {
    digits = digits.replace(/,/g, '');
  }
  const value = Number(digits);
  if (!Number.isFinite(value)) return null;
  return match[1].includes('-') || match[1].includes('(') ? -value : value;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** An ISO date (YYYY-MM-DD) from common written forms; null when none is found. */
export function parseDate(text: string): string | null {
  const iso = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(text);
  if (iso) return `${iso[1]}-${pad(Number(iso[2]))}-${pad(Number(iso[3]))}`;
  const numeric = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(text);
  if (numeric) {
    let [first, second] = [Number(numeric[1]), Number(numeric[2])];
    // Month first (US) unless that is impossible.
    if (first > 12) [first, second] = [second, first];
    const year = numeric[3].length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3]);
    return `${year}-${pad(first)}-${pad(second)}`;
  }
  const monthName = MONTHS.join('|');
  const dayMonth = new RegExp(`(\\d{1,2})(?:st|nd|rd|th)?\\s+(${monthName})[a-z]*\\.?,?\\s+(\\d{4})`, 'i').exec(text);
  if (dayMonth) return `${dayMonth[3]}-${pad(MONTHS.indexOf(dayMonth[2].toLowerCase()) + 1)}-${pad(Number(dayMonth[1]))}`;
  const monthDay = new RegExp(`(${monthName})[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})`, 'i').exec(text);
  if (monthDay) return `${monthDay[3]}-${pad(MONTHS.indexOf(monthDay[1].toLowerCase()) + 1)}-${pad(Number(monthDay[2]))}`;
  return null;
}

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
      if (schema.format === 'date' || schema.format === 'date-time' || /(^|_|\b)date$/i.test(name)) {
        return parseDate(trimmed) ?? (schema.format ? undefined : trimmed);
      }
      return trimmed;
    }
  }
}

export { schemaType };
