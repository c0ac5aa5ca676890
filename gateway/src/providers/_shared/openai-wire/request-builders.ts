import type { ChatRequest } from '../../contracts/chat.js';
import type { CompletionRequest } from '../../contracts/completions.js';
import type { EmbeddingRequest } from '../../contracts/embeddings.js';
import type { SamplingParams } from '../../contracts/sampling.js';
import type { JsonRecord } from '../http/wire-guards.js';
import type { OpenAiDialect } from './openai-dialect.js';

/** Shared by every OpenAI-shaped endpoint: model and sampling, undefined values left out. */
function samplingFields(request: SamplingParams, dialect: OpenAiDialect, stream: boolean): JsonRecord {
  return definedOnly({
    model: request.model,
    max_tokens: request.max_tokens,
    temperature: request.temperature,
    top_p: request.top_p,
    stop: request.stop && request.stop.length > 0 ? request.stop : undefined,
    [dialect.seedField]: request.seed,
    presence_penalty: request.presence_penalty,
    frequency_penalty: request.frequency_penalty,
    n: request.n !== undefined && request.n !== 1 ? request.n : undefined,
    stream,
    stream_options: stream && dialect.streamUsageOption ? { include_usage: true } : undefined,
  });
}

export function buildChatBody(request: ChatRequest, dialect: OpenAiDialect, stream: boolean): JsonRecord {
  const role = dialect.role;
  return {
    ...samplingFields(request, dialect, stream),
    messages: role ? request.messages.map((message) => ({ ...message, role: role(message.role) })) : request.messages,
    ...definedOnly({
      response_format: request.response_format,
      tools: request.tools && request.tools.length > 0 ? request.tools : undefined,
      tool_choice: request.tool_choice === undefined ? undefined : dialect.toolChoice(request.tool_choice),
      parallel_tool_calls: request.parallel_tool_calls,
    }),
  };
}

export function buildCompletionBody(request: CompletionRequest, dialect: OpenAiDialect, stream: boolean): JsonRecord {
  // vLLM, llama.cpp's server and Ollama fill the gap before `suffix` on /completions; one that cannot says so itself.
  return {
    ...samplingFields(request, dialect, stream),
    prompt: request.prompt,
    ...(request.suffix === undefined ? {} : { suffix: request.suffix }),
  };
}

export function buildEmbeddingBody(request: EmbeddingRequest, dialect: OpenAiDialect): JsonRecord {
  return definedOnly({
    model: request.model,
    input: request.input,
    encoding_format: dialect.embeddingEncoding,
    [dialect.embeddingDimensionsField]: request.dimensions,
  });
}

function definedOnly(record: JsonRecord): JsonRecord {
  const defined: JsonRecord = {};
  for (const key in record) if (record[key] !== undefined) defined[key] = record[key];
  return defined;
}
