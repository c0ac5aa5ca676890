import type { OcrResult } from '../../providers/contracts/ocr.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { SchemaValidator } from '../json/client-schema-checker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import { fillSchema, type ChatUse, type FilledSchema } from './fill-schema.js';
import { withoutMissing } from './nullable-optional.js';

/** fillSchema, billing the chat model's tokens, and refusing with a 422 (naming `param`) when a required field has no value or the fields found break the schema. */
export async function fillSchemaStrictly(
  services: { models: ModelRegistry; runner: RouteRunner },
  request: { schema: Record<string, unknown>; validate: SchemaValidator; param: string; prompt?: string },
  result: OcrResult,
  signal: AbortSignal,
  log: (message: string) => void,
  bill: (chat: ChatUse) => void,
): Promise<FilledSchema> {
  const filled = await fillSchema(services, request.schema, request.validate, result, signal, log, request.prompt);
  // The model's tokens were spent whether or not its answer is used, and whether or not the request then fails.
  if (filled.chat) bill(filled.chat);
  if (filled.missingRequired.length > 0) {
    throw new GatewayError(
      422,
      'required_fields_not_found',
      `The document has no value for the required field(s) ${filled.missingRequired.join(', ')}.`,
      { param: request.param },
    );
  }
  const problem = await request.validate(
    withoutMissing(
      filled.data,
      filled.missing.map((entry) => entry.field),
    ),
  );
  if (problem)
    throw new GatewayError(
      422,
      'schema_not_satisfied',
      `The recognised data does not satisfy the schema: ${problem}.`,
      { param: request.param },
    );
  return filled;
}
