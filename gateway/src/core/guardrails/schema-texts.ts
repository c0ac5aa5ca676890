/**
 * How a text in a JSON schema (a tool's parameters, a response format) is checked: a description or
 * title is prose the model reads and may be rewritten; anything else (a property name, an enum or
 * const value, a default, an example, a pattern, a `$ref`) shapes what the model must produce, so it
 * is checked but never changed.
 */
export type TextKind = 'prose' | 'fixed';

/** Gives each text of a schema and gets back the text to send (the same one for `fixed` texts). */
export type TextVisit = (text: string, kind: TextKind) => string;

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a schema, or a list of them. */
const SCHEMAS = new Set([
  'items',
  'additionalItems',
  'prefixItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'oneOf',
  'allOf',
]);
/** Keywords whose string values come from a closed vocabulary, not from the client's words. */
const VOCABULARY = new Set(['type', 'format', '$schema', 'contentEncoding', 'contentMediaType']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every string in a value that is data, not schema (an enum, a default, an example), as fixed text. */
function data(value: unknown, visit: TextVisit): unknown {
  if (typeof value === 'string') return visit(value, 'fixed');
  if (Array.isArray(value)) return value.map((item) => data(item, visit));
  if (isObject(value)) {
    for (const key of Object.keys(value)) visit(key, 'fixed');
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, data(item, visit)]));
  }
  return value;
}

/** `schema` rebuilt with each of its texts as `visit` returns it, in a fixed order (the same on every walk). */
export function mapSchemaTexts(schema: unknown, visit: TextVisit): unknown {
  if (Array.isArray(schema)) return schema.map((item) => mapSchemaTexts(item, visit));
  if (!isObject(schema)) return schema;
  const rebuilt: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if ((keyword === 'description' || keyword === 'title') && typeof value === 'string')
      rebuilt[keyword] = visit(value, 'prose');
    else if (SCHEMA_MAPS.has(keyword) && isObject(value))
      rebuilt[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => {
          visit(name, 'fixed');
          return [name, mapSchemaTexts(item, visit)];
        }),
      );
    else if (SCHEMAS.has(keyword)) rebuilt[keyword] = mapSchemaTexts(value, visit);
    else if (VOCABULARY.has(keyword)) rebuilt[keyword] = value;
    else rebuilt[keyword] = data(value, visit);
  }
  return rebuilt;
}
