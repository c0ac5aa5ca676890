import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import { toGrammarJsonSchema } from './to-grammar-json-schema.js';

/** A grammar that makes the output valid JSON (`json_object`) or JSON matching a schema (`json_schema`). */
export async function createResponseGrammar(
  llama: Llama,
  format: ResponseFormat | undefined,
): Promise<LlamaGrammar | undefined> {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return llama.getGrammarFor('json');
  // The engine silently turns what its converter does not know (anyOf, {}, untyped properties) into
  // "null"; the rewrite keeps such schemas meaning what the client wrote.
  const schema = toGrammarJsonSchema(format.json_schema.schema);
  if (!schema)
    throw new ProviderError('invalid_request', 'The JSON schema in response_format is not an object schema.', {
      param: 'response_format',
    });
  try {
    return await llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError(
      'invalid_request',
      `The local llama.cpp engine cannot enforce this JSON schema: ${reason}`,
      {
        param: 'response_format',
        cause: error,
      },
    );
  }
}
