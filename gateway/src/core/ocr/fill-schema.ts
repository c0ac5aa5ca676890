import type { OcrResult } from '../../providers/contracts/ocr.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService } from '../chat/chat-service.js';
import { isGuardrailBlock } from '../guardrails/guardrail-service.js';
import type { SchemaValidator } from '../json/client-schema-checker.js';
import type { ModelRoute } from '../routing/model-registry.js';
import { extractBySchema, type MissingField } from './extract-by-schema.js';
import { nullableOptional, withoutMissing } from './nullable-optional.js';

/** A chat route's answer and what it used. */
export interface ChatUse {
  route: ModelRoute;
  usage: TokenUsage;
}

export interface FilledSchema {
  /** The schema's fields; a field that could not be filled is null and listed in `missing`. */
  data: Record<string, unknown>;
  /** `language_model` when a chat route filled it, `extractor` for the rule-based label/value matcher. */
  method: 'language_model' | 'extractor';
  /** Every field left null, and why. */
  missing: MissingField[];
  missingRequired: string[];
  /** Who filled it and, for the extractor, why no language model did. */
  note: string;
  /** The chat route that answered and what it used (also when its answer was not used; the chat service billed it). */
  chat?: ChatUse;
}

/** Who a fill is for: the request's bill, its signal and log, and the route the client named (whose guardrails run on the fill too). */
export interface SchemaFillCall {
  meter: UsageMeter;
  signal: AbortSignal;
  log: (message: string) => void;
  named?: ModelRoute;
}

/** Most lines of layout sent to the language model beside the text (a long document's text is sent whole). */
const LAYOUT_LINES = 400;

/** The recognised text, then its lines with their boxes, so the model can tell a label from the value beside it. */
function documentForModel(result: OcrResult): string {
  const text = result.pages.map((page) => page.text).join('\n\n');
  const lines = result.pages.flatMap((page) =>
    page.blocks.flatMap((block) =>
      block.lines.map((line) => `p${page.index} [${line.bbox.map(Math.round).join(', ')}] ${line.text}`),
    ),
  );
  if (lines.length === 0) return `Document text:\n${text}`;
  const layout = lines.slice(0, LAYOUT_LINES).join('\n');
  return `Document text:\n${text}\n\nLayout (page, [x1, y1, x2, y2] pixel box, line text):\n${layout}${lines.length > LAYOUT_LINES ? `\n(${lines.length - LAYOUT_LINES} more lines)` : ''}`;
}

/** The null fields of a model's answer, as the extractor reports its own (dotted paths). */
function nullFields(data: unknown, path = ''): MissingField[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data).flatMap(([name, value]) =>
    value === null
      ? [{ field: `${path}${name}`, reason: 'the language model found no value for it in the document' }]
      : nullFields(value, `${path}${name}.`),
  );
}

/**
 * Structured data shaped by a client's schema: a chat route fills it with schema-constrained JSON over
 * the document's text and layout when one exists and its answer validates; otherwise (or when it fails)
 * the rule-based extractor does. Fields the schema does not require may be null, with the reason.
 */
export async function fillSchema(
  chatService: ChatService,
  schema: Record<string, unknown>,
  validate: SchemaValidator,
  result: OcrResult,
  { meter, signal, log, named }: SchemaFillCall,
  prompt?: string,
): Promise<FilledSchema> {
  const route = chatService.helperRoute();
  let chat: FilledSchema['chat'];
  let why = 'no chat model is routed';
  if (route) {
    try {
      const answer = await chatService.ask(
        route,
        [
          {
            role: 'system',
            content: `You extract data from documents. Answer with one JSON object that matches the given JSON schema, reading only the document below. Use null for a value the document does not contain; never invent or guess one.${prompt ? `\n\n${prompt}` : ''}`,
          },
          { role: 'user', content: `JSON schema:\n${JSON.stringify(schema)}\n\n${documentForModel(result)}` },
        ],
        {
          responseFormat: {
            type: 'json_schema',
            json_schema: { name: 'document_data', schema: nullableOptional(schema) },
          },
          named,
        },
        meter,
        signal,
      );
      chat = { route: answer.route, usage: answer.usage };
      const data = JSON.parse(answer.text) as Record<string, unknown>;
      const missing = nullFields(data);
      const problem = await validate(
        withoutMissing(
          data,
          missing.map((entry) => entry.field),
        ),
      );
      if (!problem)
        return {
          data,
          method: 'language_model',
          missing,
          missingRequired: [],
          note: `Filled by the language model ${answer.route.id}.`,
          chat,
        };
      why = `the answer of ${route.id} did not match the schema (${problem})`;
    } catch (error) {
      if (signal.aborted || isGuardrailBlock(error)) throw error;
      why = `${route.id} could not fill the schema (${(error as Error).message})`;
    }
    log(`${why}; using the rule-based extractor`);
  }
  const extracted = await extractBySchema(schema, result, signal);
  return {
    data: extracted.data,
    method: 'extractor',
    missing: extracted.missing,
    missingRequired: extracted.missingRequired,
    note: `Filled by the rule-based extractor (labels and values read from the OCR lines): ${why}.`,
    chat,
  };
}
