import { GatewayError } from '../errors/gateway-error.js';

export interface ClientSchemaSizeLimits {
  /** Length of the schema's JSON text, in bytes (counted as characters). */
  maxBytes: number;
  /** Objects and arrays nested in one another, the schema itself being level 1. */
  maxDepth: number;
  /** Values of every kind (objects, arrays, strings, numbers, ...), the schema itself included. */
  maxNodes: number;
}

interface Level {
  value: unknown;
  depth: number;
}

/**
 * Refuses a client's JSON schema larger or deeper than `limits` with a 422 naming `param` and the
 * limit, before anything compiles it: compiling costs far more than reading (Ajv took 4.5 s on a 3 MB
 * schema of 50,000 properties, then overflowed its stack). One walk with an explicit stack that stops
 * at the first limit passed, so a refused schema costs no more than the limit.
 */
export function checkClientSchemaSize(schema: unknown, param: string, limits: ClientSchemaSizeLimits): void {
  const stack: Level[] = [{ value: schema, depth: 1 }];
  let nodes = 1;
  let bytes = 0;
  const addBytes = (count: number): void => {
    bytes += count;
    if (bytes > limits.maxBytes)
      refuse(param, `is larger than ${Math.round(limits.maxBytes / 1024)} KiB of JSON`, 'server.schema_max_kb');
  };
  // Counted as they are found, so a huge object or array is refused on its first values past the limit.
  const found = (value: unknown, depth: number, nameLength: number): void => {
    nodes++;
    if (nodes > limits.maxNodes)
      refuse(
        param,
        `holds more than ${limits.maxNodes} values (objects, arrays, strings, numbers...)`,
        'server.schema_max_nodes',
      );
    addBytes(nameLength);
    stack.push({ value, depth });
  };
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value !== null && typeof value === 'object') {
      if (depth > limits.maxDepth)
        refuse(param, `is nested more than ${limits.maxDepth} levels deep`, 'server.schema_max_depth');
      // Brackets, then per member a comma, and for a property its quoted name and a colon.
      addBytes(2);
      if (Array.isArray(value)) {
        for (const item of value as unknown[]) found(item, depth + 1, 1);
      } else {
        for (const key in value) found((value as Record<string, unknown>)[key], depth + 1, key.length + 4);
      }
    } else {
      addBytes(typeof value === 'string' ? value.length + 2 : String(value).length);
    }
  }
}

function refuse(param: string, problem: string, setting: string): never {
  throw new GatewayError(
    422,
    'schema_too_large',
    `'${param}' ${problem}; simplify or split the schema (the limit is the gateway's ${setting}).`,
    { param },
  );
}
