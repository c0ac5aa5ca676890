import type {
  CompletionProvider,
  CompletionRequest,
  CompletionResult,
  CompletionStreamEvent,
} from '../contracts/completions.js';
import type { TokenUsage } from '../contracts/sampling.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import { isRecord, type JsonRecord } from '../_shared/http/wire-guards.js';
import { approximateTokens } from '../_shared/approximate-tokens.js';
import { readChatResult } from '../_shared/openai-wire/openai-chat.js';
import type { OpenAiDialect } from '../_shared/openai-wire/openai-dialect.js';
import { reframeOpenAiStream } from '../_shared/openai-wire/reframe-openai-stream.js';
import { buildCompletionBody } from '../_shared/openai-wire/request-builders.js';

type DeltaEvent = Extract<CompletionStreamEvent, { type: 'delta' }>;

/**
 * Text completion through Mistral's fill-in-the-middle endpoint (`POST /v1/fim/completions`, Codestral
 * models): it answers in the chat shape, and has no `n`, so n > 1 is n requests (not for streams).
 */
export function createMistralFimCompletions(client: UpstreamClient, dialect: OpenAiDialect): CompletionProvider {
  const body = (request: CompletionRequest, stream: boolean): JsonRecord => ({
    ...buildCompletionBody({ ...request, n: undefined }, dialect, stream),
    ...(request.suffix ? { suffix: request.suffix } : {}),
  });
  const once = async (request: CompletionRequest): Promise<CompletionResult> => {
    const answer = await client.postJson({
      path: '/fim/completions',
      body: { json: body(request, false) },
      signal: request.signal,
    });
    const chat = readChatResult(answer, client.name, () => approximateTokens(request.prompt));
    return {
      choices: chat.choices.map((choice) => ({
        index: choice.index,
        text: choice.message.content ?? '',
        finish_reason: choice.finish_reason,
      })),
      usage: chat.usage,
    };
  };

  return {
    fillInTheMiddle: true,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const n = request.n ?? 1;
      if (n <= 1) return once(request);
      const results = await Promise.all(Array.from({ length: n }, () => once(request)));
      return {
        choices: results.map((result, index) => ({ ...result.choices[0], index })),
        usage: results.reduce<TokenUsage>(
          (sum, result) => ({
            prompt_tokens: sum.prompt_tokens + result.usage.prompt_tokens,
            completion_tokens: sum.completion_tokens + result.usage.completion_tokens,
          }),
          { prompt_tokens: 0, completion_tokens: 0 },
        ),
      };
    },

    async completeStream(request: CompletionRequest): Promise<AsyncIterable<CompletionStreamEvent>> {
      const stream = await client.postStream({
        path: '/fim/completions',
        body: { json: body(request, true) },
        signal: request.signal,
      });
      return reframeOpenAiStream<DeltaEvent>(stream, {
        providerName: client.name,
        promptTokens: approximateTokens(request.prompt),
        delta: fimDelta,
      });
    },
  };
}

function fimDelta(choice: JsonRecord, index: number): { event?: DeltaEvent; text: string } {
  const text = isRecord(choice.delta) && typeof choice.delta.content === 'string' ? choice.delta.content : '';
  return { event: text === '' ? undefined : { type: 'delta', index, text }, text };
}
