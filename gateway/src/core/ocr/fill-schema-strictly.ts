import type { OcrResult } from '../../providers/contracts/ocr.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ChatService } from '../chat/chat-service.js';
import type { SchemaValidator } from '../json/client-schema-checker.js';
import { fillSchema, type FilledSchema, type SchemaFillCall } from './fill-schema.js';
import { withoutMissing } from './nullable-optional.js';

/** fillSchema, refusing with a 422 (naming `param`) when a required field has no value or the fields found break the schema. */
export async function fillSchemaStrictly(
  chatService: ChatService,
  request: { schema: Record<string, unknown>; validate: SchemaValidator; param: string; prompt?: string },
  result: OcrResult,
  call: SchemaFillCall,
): Promise<FilledSchema> {
  const filled = await fillSchema(chatService, request.schema, request.validate, result, call, request.prompt);
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
