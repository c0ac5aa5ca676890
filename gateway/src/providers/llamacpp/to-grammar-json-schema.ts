import type { GbnfJsonSchema } from 'node-llama-cpp';

type Schema = Record<string, unknown>;

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const STRING_FORMATS = new Set(['date-time', 'time', 'date']);

/** Any JSON value, spelled in the subset node-llama-cpp's grammar understands. */
export const ANY_JSON_VALUE = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
} as const satisfies GbnfJsonSchema;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown): boolean =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * Rewrites a client's JSON Schema (tool parameters) into the subset node-llama-cpp turns into a
 * grammar. Its converter does not reject what it does not know: it silently reads `anyOf`, `{}` or
 * a schema without `type` as "null", so those must be rewritten here (anyOf as oneOf, no type as
 * any value). All declared properties are always generated (the grammar ignores `required`), which
 * still satisfies the schema. Keywords with no grammar equivalent (`pattern`, `minimum`...) are
 * dropped. Returns undefined when the schema cannot be expressed (`allOf` with several parts, an
 * unknown `$ref`, non-primitive enum values).
 */
export function toGrammarJsonSchema(schema: unknown): GbnfJsonSchema | undefined {
  if (schema === true) return ANY_JSON_VALUE;
  if (!isSchema(schema)) return undefined;
  const converted = convert(schema);
  const definitions = schema.$defs ?? schema.definitions;
  if (converted === undefined || !isSchema(definitions)) return converted;
  const $defs: Record<string, GbnfJsonSchema> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const convertedDefinition = toGrammarJsonSchema(definition);
    if (convertedDefinition === undefined) return undefined;
    $defs[name] = convertedDefinition;
  }
  return { ...converted, $defs } as GbnfJsonSchema;
}

function convert(schema: Schema): GbnfJsonSchema | undefined {
  if ('const' in schema) return isPrimitive(schema.const) ? ({ const: schema.const } as GbnfJsonSchema) : undefined;
  if (Array.isArray(schema.enum))
    return schema.enum.every(isPrimitive) ? ({ enum: schema.enum } as GbnfJsonSchema) : undefined;
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref.replace(/^#\/definitions\//, '#/$defs/');
    return ref.startsWith('#/$defs/') ? ({ $ref: ref } as GbnfJsonSchema) : undefined;
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) return oneOf(alternatives);
  if (Array.isArray(schema.allOf)) return schema.allOf.length === 1 ? toGrammarJsonSchema(schema.allOf[0]) : undefined;
  const type: unknown = schema.type ?? (isSchema(schema.properties) ? 'object' : undefined);
  if (type === undefined) return ANY_JSON_VALUE;
  if (Array.isArray(type)) {
    if (type.every((entry) => typeof entry === 'string' && PRIMITIVE_TYPES.has(entry)))
      return { type } as GbnfJsonSchema;
    return oneOf(type.map((entry: unknown) => ({ ...schema, type: entry })));
  }
  switch (type) {
    case 'object':
      return convertObject(schema);
    case 'array':
      return convertArray(schema);
    case 'string':
      return convertString(schema);
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { type } as GbnfJsonSchema;
    default:
      return undefined;
  }
}

function convertEach(schemas: unknown[]): GbnfJsonSchema[] | undefined {
  const converted = schemas.map(toGrammarJsonSchema);
  return converted.every((entry) => entry !== undefined) ? converted : undefined;
}

function oneOf(schemas: unknown[]): GbnfJsonSchema | undefined {
  const converted = convertEach(schemas);
  return converted && { oneOf: converted };
}

function convertObject(schema: Schema): GbnfJsonSchema | undefined {
  if (isSchema(schema.properties)) {
    const properties: Record<string, GbnfJsonSchema> = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      const converted = toGrammarJsonSchema(value);
      if (converted === undefined) return undefined;
      properties[key] = converted;
    }
    // Exactly the declared properties: a valid instance whatever additionalProperties says.
    return { type: 'object', properties, additionalProperties: false };
  }
  if (schema.additionalProperties === false) return { type: 'object', additionalProperties: false };
  const values = isSchema(schema.additionalProperties) ? toGrammarJsonSchema(schema.additionalProperties) : true;
  return values === undefined ? undefined : { type: 'object', additionalProperties: values };
}

function convertArray(schema: Schema): GbnfJsonSchema | undefined {
  const items = schema.items === undefined ? undefined : toGrammarJsonSchema(schema.items);
  if (schema.items !== undefined && items === undefined) return undefined;
  const prefixItems = Array.isArray(schema.prefixItems) ? convertEach(schema.prefixItems) : undefined;
  if (Array.isArray(schema.prefixItems) && prefixItems === undefined) return undefined;
  return {
    type: 'array',
    ...(items ? { items } : {}),
    ...(prefixItems ? { prefixItems } : {}),
    ...(typeof schema.minItems === 'number' ? { minItems: schema.minItems } : {}),
    ...(typeof schema.maxItems === 'number' ? { maxItems: schema.maxItems } : {}),
  };
}

function convertString(schema: Schema): GbnfJsonSchema {
  if (typeof schema.format === 'string' && STRING_FORMATS.has(schema.format)) {
    return { type: 'string', format: schema.format as 'date-time' | 'time' | 'date' };
  }
  return {
    type: 'string',
    ...(typeof schema.minLength === 'number' ? { minLength: schema.minLength } : {}),
    ...(typeof schema.maxLength === 'number' ? { maxLength: schema.maxLength } : {}),
  };
}
