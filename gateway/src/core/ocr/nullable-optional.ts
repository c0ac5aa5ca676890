type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property schema that also admits null. */
function orNull(property: Schema): Schema {
  const type = property.type;
  if (typeof type === 'string') return type === 'null' ? property : { ...property, type: [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? property : { ...property, type: [...type, 'null'] };
  return { anyOf: [property, { type: 'null' }] };
}

/**
 * The schema as sent to a language model: every property the schema does not require may be null, so
 * a model held to the schema can say it found nothing instead of inventing a value of the right type.
 */
export function nullableOptional(schema: Schema): Schema {
  if (!isObject(schema.properties)) return schema;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      if (!isObject(property)) return [name, property];
      const inner = nullableOptional(property);
      return [name, required.has(name) ? inner : orNull(inner)];
    }),
  );
  return { ...schema, properties };
}

/** The data without the fields at these dotted paths (the ones left null), to check the rest against the client's schema. */
export function withoutMissing(data: Schema, paths: string[]): Schema {
  const copy = structuredClone(data);
  for (const path of paths) {
    const names = path.split('.');
    let at: unknown = copy;
    for (const name of names.slice(0, -1)) at = isObject(at) ? at[name] : undefined;
    if (isObject(at)) delete at[names[names.length - 1]];
  }
  return copy;
}
