import {
  FIM_NOT_SUPPORTED,
  type CompletionProvider,
  type CompletionRequest,
  type CompletionResult,
  type CompletionStreamEvent,
} from '../contracts/completions.js';
import { ProviderError } from '../_shared/provider-error.js';
import { startOutputTokenCount, toFinishReason, toGenerationOptions } from './generation-options.js';
import type { ModelPool } from './model-pool.js';
import { startEventStream } from './start-event-stream.js';
import { toProviderError } from './to-provider-error.js';

type Emit = (event: CompletionStreamEvent) => void;

async function runCompletion(
  pool: ModelPool,
  request: CompletionRequest,
  signal: AbortSignal,
  emit?: Emit,
): Promise<CompletionResult> {
  try {
    return await pool
      .model(request.model)
      .use(signal, async ({ model, completion, contextSize, sequence }, generationSignal) => {
        const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? 1 : 0;
        if (request.suffix !== undefined && !completion.infillSupported) {
          throw new ProviderError(
            'invalid_request',
            `The GGUF of "${request.model}" has no fill-in-the-middle tokens (prefix, suffix, middle), so it cannot fill a gap; use a code model trained for FIM (for example a Codestral, Qwen2.5-Coder or StarCoder2 GGUF).`,
            { code: FIM_NOT_SUPPORTED, param: 'suffix' },
          );
        }
        const promptTokens =
          model.tokenize(request.prompt).length +
          (request.suffix === undefined ? 0 : model.tokenize(request.suffix).length) +
          bos;
        const options = toGenerationOptions(request, promptTokens, contextSize);
        const choices: CompletionResult['choices'] = [];
        let completionTokens = 0;
        for (let index = 0; index < (request.n ?? 1); index++) {
          const countOutputTokens = startOutputTokenCount(sequence);
          const generation = {
            ...options,
            signal: generationSignal,
            onTextChunk: (text: string) => {
              if (emit && text.length > 0) emit({ type: 'delta', index, text });
            },
          };
          const { response, metadata } =
            request.suffix === undefined
              ? await completion.generateCompletionWithMeta(request.prompt, generation)
              : await completion.generateInfillCompletionWithMeta(request.prompt, request.suffix, generation);
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
    // Per model: a GGUF without FIM tokens answers a suffix with FIM_NOT_SUPPORTED.
    fillInTheMiddle: true,
    complete: (request) => runCompletion(pool, request, request.signal),
    completeStream: (request) =>
      startEventStream<CompletionStreamEvent>(request.signal, async (emit, signal) => {
        const { usage } = await runCompletion(pool, request, signal, emit);
        emit({ type: 'usage', usage });
      }),
  };
}
