import type { OcrResult } from '../../providers/contracts/ocr.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { SchemaValidator } from '../json/client-schema-checker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import { fillSchema, type FilledSchema } from './fill-schema.js';

/** fillSchema, refusing with a 422 (naming `param`) when a required field has no value or the data breaks the schema. */
export async function fillSchemaStrictly(
  services: { models: ModelRegistry; runner: RouteRunner },
  request: { schema: Record<string, unknown>; validate: SchemaValidator; param: string; prompt?: string },
  result: OcrResult,
  signal: AbortSignal,
  log: (message: string) => void,
): Promise<FilledSchema> {
  const filled = await fillSchema(services, request.schema, request.validate, result, signal, log, request.prompt);
  if (filled.missingRequired.length > 0) {
    throw new GatewayError(422, 'required_fields_not_found', `The document has no value for the required field(s) ${filled.missingRequired.join(', ')}.`, { param: request.param });
  }
  const problem = await request.validate(filled.data);
  if (problem) throw new GatewayError(422, 'schema_not_satisfied', `The recognised data does not satisfy the schema: ${problem}.`, { param: request.param });
  return filled;
}
