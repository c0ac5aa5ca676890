import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type RouteDefinition = { httpPart?: string };
type BuildValidator = (route: RouteDefinition) => unknown;

const shared = { useDefaults: true, removeAdditional: false, allErrors: false } as const;

/**
 * Query strings and path parameters arrive as text and are coerced to their schema's types;
 * JSON bodies are not: `"temperature": "0.5"` or `null` for a number is a 422, never a silent 0.
 */
export function validationController(): NonNullable<FastifyServerOptions['schemaController']> {
  const factory = AjvCompiler();
  return {
    compilersFactory: {
      buildValidator: (externalSchemas: Record<string, unknown>) => {
        const body = factory(externalSchemas as never, { customOptions: { ...shared, coerceTypes: false } }) as unknown as BuildValidator;
        const text = factory(externalSchemas as never, { customOptions: { ...shared, coerceTypes: 'array' } }) as unknown as BuildValidator;
        return ((route: RouteDefinition) => (route.httpPart === 'body' ? body(route) : text(route))) as never;
      },
    },
  };
}
