/**
 * Sample values for the JSON schemas of the gateway's OpenAPI document: a minimal valid value,
 * a small validator (the keywords the gateway's TypeBox schemas use), and a pool of hostile values
 * to split into "invalid for this field" and "valid but extreme".
 */
export interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function typeMatches(type: string, value: unknown): boolean {
  const actual = jsonType(value);
  // Like Ajv: Infinity (what 1e999 parses to) is not a number.
  if (type === 'integer') return actual === 'number' && Number.isInteger(value);
  if (type === 'number') return actual === 'number' && Number.isFinite(value);
  return type === actual;
}

/** True when `value` satisfies `schema` (enough of JSON Schema for the gateway's own schemas). */
export function accepts(schema: JsonSchema, value: unknown): boolean {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !alternatives.some((alternative) => accepts(alternative, value))) return false;
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeMatches(type, value))) return false;
  }
  if (schema.enum && !schema.enum.includes(value)) return false;
  if ('const' in schema && schema.const !== value) return false;
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) return false;
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    const items = schema.items;
    if (items && !value.every((item) => accepts(items, item))) return false;
  }
  if (jsonType(value) === 'object') {
    const record = value as Record<string, unknown>;
    if (schema.required?.some((name) => !(name in record))) return false;
    for (const [name, field] of Object.entries(record)) {
      const declared = schema.properties?.[name];
      if (declared) {
        if (!accepts(declared, field)) return false;
      } else if (schema.additionalProperties === false) {
        return false;
      } else if (typeof schema.additionalProperties === 'object' && !accepts(schema.additionalProperties, field)) {
        return false;
      }
    }
  }
  return true;
}

/** A small value the schema accepts (required properties only), or undefined when none is obvious. */
export function minimalValue(schema: JsonSchema): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return minimalValue(
      alternatives.find((alternative) => jsonType(minimalValue(alternative)) !== 'null') ?? alternatives[0],
    );
  if (schema.enum) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return schema.pattern === '^[0-9]+x[0-9]+$' ? '1024x1024' : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items ?? {}));
    case 'object':
    default:
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, minimalValue(schema.properties?.[name] ?? {})]),
      );
  }
}

/** A hostile value: `raw` is its JSON text; `sample` stands for it in `accepts` (deep nesting would overflow the checker). */
export interface HostileValue {
  label: string;
  raw: string;
  sample: unknown;
}

const plain = (label: string, value: unknown): HostileValue => ({ label, raw: JSON.stringify(value), sample: value });
const NESTING = 100_000;

/** Wrong types, NaN-like strings, out-of-range and huge numbers, huge strings, deep nesting. */
export const HOSTILE_VALUES: HostileValue[] = [
  plain('integer 123', 123),
  plain('-1', -1),
  plain('0', 0),
  plain('1.5', 1.5),
  plain('-1e308', -1e308),
  plain('1e308', 1e308),
  plain('2^53 + 1', 2 ** 53 + 1),
  { label: '1e999 (Infinity once parsed)', raw: '1e999', sample: Infinity },
  { label: '-1e999', raw: '-1e999', sample: -Infinity },
  plain('"NaN"', 'NaN'),
  plain('"Infinity"', 'Infinity'),
  plain('"12"', '12'),
  plain('"true"', 'true'),
  plain('empty string', ''),
  plain('blank string', '   '),
  plain('NUL string', '\u0000'),
  plain('unicode string', 'ünïcødé 💥 \u202e'),
  plain('200 kB string', 'x'.repeat(200_000)),
  plain('true', true),
  plain('null', null),
  plain('empty array', []),
  plain('array of null', [null]),
  plain('array of object', [{}]),
  plain('empty object', {}),
  plain('nested object', { a: { b: { c: [1, 'x', null] } } }),
  { label: `array nested ${NESTING} deep`, raw: '['.repeat(NESTING) + ']'.repeat(NESTING), sample: [[[]]] },
  {
    label: `object nested ${NESTING} deep`,
    raw: '{"a":'.repeat(NESTING) + '{}' + '}'.repeat(NESTING),
    sample: { a: { a: {} } },
  },
];

/** Not JSON at all: the body they end up in must be a 400. */
export const NOT_JSON_VALUES = ['NaN', 'Infinity', 'undefined', "'single'", '0x10', '01'];
