import type { CompletionProvider, CompletionRequest, CompletionResult, CompletionStreamEvent } from '../contracts/completions.js';
import { startOutputTokenCount, toFinishReason, toGenerationOptions } from './generation-options.js';
import type { ModelPool } from './model-pool.js';
import { startEventStream } from './start-event-stream.js';
import { toProviderError } from './to-provider-error.js';

type Emit = (event: CompletionStreamEvent) => void;

async function runCompletion(pool: ModelPool, request: CompletionRequest, signal: AbortSignal, emit?: Emit): Promise<CompletionResult> {
  try {
    return await pool.model(request.model).use(signal, async ({ model, completion, contextSize, sequence }, generationSignal) => {
      const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? 1 : 0;
      const promptTokens = model.tokenize(request.prompt).length + bos;
      const options = toGenerationOptions(request, promptTokens, contextSize);
      const choices: CompletionResult['choices'] = [];
      let completionTokens = 0;
      for (let index = 0; index < (request.n ?? 1); index++) {
        const countOutputTokens = startOutputTokenCount(sequence);
        const { response, metadata } = await completion.generateCompletionWithMeta(request.prompt, {
          ...options,
          signal: generationSignal,
          onTextChunk: (text) => {
            if (emit && text.length > 0) emit({ type: 'delta', index, text });
          },
        });
        const finishReason = toFinishReason(metadata.stopReason);
        emit?.({ type: 'finish', index, finish_reason: finishReason });
        choices.push({ index, text: response, finish_reason: finishReason });
        completionTokens += countOutputTokens();
      }
      return { choices, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } };
    });
  } catch (error) {
    throw toProviderError(error, signal);
  }
}

export function createLlamaCppCompletions(pool: ModelPool): CompletionProvider {
  return {
    complete: (request) => runCompletion(pool, request, request.signal),
    completeStream: (request) =>
      startEventStream<CompletionStreamEvent>(request.signal, async (emit, signal) => {
        const { usage } = await runCompletion(pool, request, signal, emit);
        emit({ type: 'usage', usage });
      }),
  };
}
