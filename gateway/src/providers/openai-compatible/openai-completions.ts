import type {
  CompletionProvider,
  CompletionRequest,
  CompletionResult,
  CompletionStreamEvent,
} from '../contracts/completions.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import {
  expectArray,
  expectRecord,
  malformedResponse,
  optionalNumber,
  optionalString,
  type JsonRecord,
} from '../_shared/http/wire-guards.js';
import { approximateTokens } from '../_shared/approximate-tokens.js';
import { readTokenUsage, toFinishReason } from '../_shared/openai-wire/answer-values.js';
import type { OpenAiDialect } from '../_shared/openai-wire/openai-dialect.js';
import { reframeOpenAiStream } from '../_shared/openai-wire/reframe-openai-stream.js';
import { buildCompletionBody } from '../_shared/openai-wire/request-builders.js';

type DeltaEvent = Extract<CompletionStreamEvent, { type: 'delta' }>;

/** Text completion over `POST <base>/completions`, plain and streamed; a FIM request's `suffix` goes with it (the upstream refuses it if it must). */
export function createOpenAiCompletions(client: UpstreamClient, dialect: OpenAiDialect): CompletionProvider {
  return {
    fillInTheMiddle: true,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const answer = await client.postJson({
        path: '/completions',
        body: { json: buildCompletionBody(request, dialect, false) },
        signal: request.signal,
      });
      const record = expectRecord(answer, client.name, 'the answer');
      const choices = expectArray(record.choices, client.name, 'choices').map((choice, position) => {
        const item = expectRecord(choice, client.name, 'a choice');
        return {
          index: optionalNumber(item.index) ?? position,
          text: optionalString(item.text) ?? '',
          finish_reason: toFinishReason(item.finish_reason),
        };
      });
      if (choices.length === 0) throw malformedResponse(client.name, 'no choices');
      const usage = readTokenUsage(record.usage) ?? {
        prompt_tokens: approximateTokens(request.prompt),
        completion_tokens: approximateTokens(...choices.map((choice) => choice.text)),
      };
      return { choices, usage };
    },

    async completeStream(request: CompletionRequest): Promise<AsyncIterable<CompletionStreamEvent>> {
      const body = await client.postStream({
        path: '/completions',
        body: { json: buildCompletionBody(request, dialect, true) },
        signal: request.signal,
      });
      return reframeOpenAiStream<DeltaEvent>(body, {
        providerName: client.name,
        promptTokens: approximateTokens(request.prompt),
        choices: request.n,
        delta: completionDelta,
      });
    },
  };
}

function completionDelta(choice: JsonRecord, index: number): { event?: DeltaEvent; text: string } {
  const text = optionalString(choice.text) ?? '';
  return { event: text === '' ? undefined : { type: 'delta', index, text }, text };
}
