import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type RouteDefinition = { httpPart?: string };
type Validator = ((data: unknown) => unknown) & { errors?: unknown };
type BuildValidator = (route: RouteDefinition) => Validator;
type Serializer = (data: unknown) => string;

const shared = { useDefaults: true, removeAdditional: false, allErrors: false } as const;

/**
 * String lengths are UTF-16 units (`.length`), not code points, which Ajv counts one character at a
 * time in JavaScript: a 50 MB document's data URL checked against `minLength: 1` held the event loop
 * about a second. Set on the instance: as a constructor option Ajv logs it as deprecated (it still works).
 */
const lengthsInUnits = (ajv: { opts: { unicode?: boolean } }): void => {
  ajv.opts.unicode = false;
};

/** The first value coercion turned into a non-finite number (`limit=Infinity`, `limit=1e400`), as an instance path. */
function nonFinitePath(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  for (const [name, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((item) => typeof item === 'number' && !Number.isFinite(item))) return `/${name}`;
  }
  return undefined;
}

/**
 * Ajv coerces "Infinity" and "1e400" to Infinity and then lets it through `integer` and `maximum`
 * (the checks after coercion are skipped); such a value reaching SQLite or slice() is a 500 or a
 * silently unbounded list. Refused here as the schema violation it is.
 */
function finiteOnly(validate: Validator): Validator {
  const checked: Validator = (data) => {
    const result = validate(data);
    if (result !== true) return result;
    const path = nonFinitePath(data);
    return path === undefined
      ? true
      : { error: [{ instancePath: path, keyword: 'type', message: 'must be a finite number', params: {} }] };
  };
  Object.defineProperty(checked, 'errors', { get: () => validate.errors });
  return checked;
}

/** Deeper than any real request; deep enough to stay clear of recursion limits in Ajv and JSON.stringify. */
export const MAX_BODY_DEPTH = 128;
/** How much of an over-deep value's path a 422 names. */
const NAMED_SEGMENTS = 4;

/** An object or array met on the way down; its path is rebuilt from the parents only for the 422. */
interface Level {
  value: object;
  depth: number;
  key: string;
  parent: Level | undefined;
}

/**
 * Whether anything in `value` lies `MAX_BODY_DEPTH` levels down: a recursion that stops at that depth
 * (so it cannot overflow) and allocates nothing, the check every body takes; finding the path is left
 * to `overDeepPath`, for the bodies it refuses.
 */
function reachesMaxDepth(value: object, depth: number): boolean {
  if (depth >= MAX_BODY_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (child !== null && typeof child === 'object' && reachesMaxDepth(child, depth + 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const child: unknown = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && reachesMaxDepth(child, depth + 1)) return true;
  }
  return false;
}

/** The instance path of the first value nested deeper than `MAX_BODY_DEPTH` (iterative: the body may be 100 000 levels deep). */
function overDeepPath(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || !reachesMaxDepth(data, 0)) return undefined;
  const stack: Level[] = [{ value: data, depth: 0, key: '', parent: undefined }];
  while (stack.length > 0) {
    const level = stack.pop()!;
    if (level.depth >= MAX_BODY_DEPTH) return pathOf(level);
    const value = level.value as Record<string, unknown>;
    for (const key in value) {
      const child = value[key];
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: level.depth + 1, key, parent: level });
    }
  }
  return undefined;
}

function pathOf(level: Level): string {
  const keys: string[] = [];
  for (let at: Level | undefined = level; at?.parent; at = at.parent) keys.push(at.key);
  return keys
    .reverse()
    .slice(0, NAMED_SEGMENTS)
    .map((segment) => `/${segment}`)
    .join('');
}

/**
 * Refuses JSON bodies nested deeper than `MAX_BODY_DEPTH` before the schema sees them: such a value
 * passes `Type.Unknown()` fields (tool parameters, schemas, tool-call arguments) and later overflows
 * the stack in JSON.stringify or a schema compiler, a 500 or a 502 for what is the client's mistake.
 */
function shallowOnly(validate: Validator): Validator {
  const checked: Validator = (data) => {
    const path = overDeepPath(data);
    if (path === undefined) return validate(data);
    return {
      error: [
        {
          instancePath: path,
          keyword: 'maxDepth',
          message: `is nested more than ${MAX_BODY_DEPTH} levels deep`,
          params: {},
        },
      ],
    };
  };
  Object.defineProperty(checked, 'errors', { get: () => validate.errors });
  return checked;
}

/**
 * A route's validator, compiled on the route's first request: compiling every route's schemas
 * (about 170 validators) when the gateway is built held each start for most of a second, while a
 * start serves a handful of routes, tests and e2e specs too.
 */
function validatorOnFirstUse(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validate: Validator = (data) => (compiled ??= compile())(data);
  Object.defineProperty(validate, 'errors', { get: () => compiled?.errors });
  return validate;
}

/** A response serializer compiled on its first answer, for the same reason (about 500 of them, HEAD routes included). */
function serializerOnFirstUse(compile: () => Serializer): Serializer {
  let compiled: Serializer | undefined;
  return (data) => (compiled ??= compile())(data);
}

/**
 * Query strings and path parameters arrive as text and are coerced to their schema's types;
 * JSON bodies are not: `"temperature": "0.5"` or `null` for a number is a 422, never a silent 0.
 * Schemas compile on first use (validatorOnFirstUse).
 */
export function validationController(): NonNullable<FastifyServerOptions['schemaController']> {
  const factory = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    compilersFactory: {
      buildValidator: (externalSchemas: Record<string, unknown>) => {
        const body = factory(externalSchemas as never, {
          customOptions: { ...shared, coerceTypes: false },
          onCreate: lengthsInUnits,
        }) as unknown as BuildValidator;
        const text = factory(externalSchemas as never, {
          customOptions: { ...shared, coerceTypes: 'array' },
          onCreate: lengthsInUnits,
        }) as unknown as BuildValidator;
        return ((route: RouteDefinition) =>
          validatorOnFirstUse(() =>
            route.httpPart === 'body' ? shallowOnly(body(route)) : finiteOnly(text(route)),
          )) as never;
      },
      buildSerializer: (externalSchemas, options) => {
        const build = serializers(externalSchemas, options);
        return (route) => serializerOnFirstUse(() => build(route));
      },
    },
  };
}
