import type { OcrResult } from '../../providers/contracts/ocr.js';
import { askChat, helperChatRoute } from '../routing/chat-route.js';
import type { SchemaValidator } from '../json/client-schema-checker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import { extractBySchema } from './extract-by-schema.js';

export interface FilledSchema {
  data: Record<string, unknown>;
  /** `language_model` when a chat route filled it, `extractor` for the deterministic label/value matcher. */
  method: 'language_model' | 'extractor';
  missingRequired: string[];
}

const documentText = (result: OcrResult) => result.pages.map((page) => page.text).join('\n\n');

/**
 * Structured data shaped by a client's schema: a chat route fills it with schema-constrained JSON when
 * one exists and its answer validates; otherwise (or when it fails) the deterministic extractor does.
 */
export async function fillSchema(
  services: { models: ModelRegistry; runner: RouteRunner },
  schema: Record<string, unknown>,
  validate: SchemaValidator,
  result: OcrResult,
  signal: AbortSignal,
  log: (message: string) => void,
  prompt?: string,
): Promise<FilledSchema> {
  const chat = helperChatRoute(services.models);
  if (chat) {
    try {
      const answer = await askChat(
        services.runner,
        chat,
        [
          {
            role: 'system',
            content: `You extract data from documents. Answer with one JSON object that matches the given JSON schema. Use null for values the document does not contain; never invent values.${prompt ? `\n\n${prompt}` : ''}`,
          },
          { role: 'user', content: `JSON schema:\n${JSON.stringify(schema)}\n\nDocument text:\n${documentText(result)}` },
        ],
        { signal, responseFormat: { type: 'json_schema', json_schema: { name: 'document_data', schema } } },
      );
      const data = JSON.parse(answer.text) as Record<string, unknown>;
      const problem = await validate(data);
      if (!problem) return { data, method: 'language_model', missingRequired: [] };
      log(`language model answer did not match the schema (${problem}); using the extractor`);
    } catch (error) {
      if (signal.aborted) throw error;
      log(`language model could not fill the schema (${(error as Error).message}); using the extractor`);
    }
  }
  const extracted = await extractBySchema(schema, result, signal);
  return { data: extracted.data, method: 'extractor', missingRequired: extracted.missingRequired };
}
