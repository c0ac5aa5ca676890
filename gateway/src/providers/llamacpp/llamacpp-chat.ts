import type { ChatChoice, ChatProvider, ChatRequest, ChatResult, ChatStreamEvent } from '../contracts/chat.js';
import { ChoiceOutput } from './choice-output.js';
import { GenerationStages } from './generation-stages.js';
import { startOutputTokenCount, toGenerationOptions } from './generation-options.js';
import type { ModelPool } from './model-pool.js';
import { createResponseGrammar } from './response-grammar.js';
import { startEventStream } from './start-event-stream.js';
import { toChatHistory } from './to-chat-history.js';
import { toProviderError } from './to-provider-error.js';
import { createToolCallGrammar } from './tool-call-grammar.js';
import { resolveToolMode } from './tool-mode.js';
import { toolsSystemPrompt } from './tools-system-prompt.js';

type Emit = (event: ChatStreamEvent) => void;

/**
 * Runs the `n` choices one after another in one queue turn, emitting stream events when asked to.
 * Tools are described in the system prompt; a forced tool_choice also constrains the output to a
 * call with a grammar, while `auto` lets the model answer or call (see ChoiceOutput).
 */
async function runChat(pool: ModelPool, request: ChatRequest, signal: AbortSignal, emit?: Emit): Promise<ChatResult> {
  try {
    const mode = resolveToolMode(request);
    const history = toChatHistory(request.messages, mode.kind === 'none' ? undefined : toolsSystemPrompt(mode));
    return await pool.model(request.model).use(signal, async (loaded, generationSignal) => {
      const { contextText } = loaded.chat.chatWrapper.generateContextState({ chatHistory: history });
      const promptTokens = contextText.tokenize(loaded.model.tokenizer).length;
      const options = toGenerationOptions(request, promptTokens, loaded.contextSize);
      const grammar =
        mode.kind === 'forced'
          ? await createToolCallGrammar(loaded.llama, mode.tools)
          : await createResponseGrammar(loaded.llama, request.response_format);
      const choices: ChatChoice[] = [];
      let completionTokens = 0;
      const stages = new GenerationStages(pool.tracer, promptTokens);
      try {
        for (let index = 0; index < (request.n ?? 1); index++) {
          const countOutputTokens = startOutputTokenCount(loaded.sequence);
          const output = new ChoiceOutput(index, mode, emit);
          const { response, metadata } = await loaded.chat.generateResponse(history, {
            ...options,
            grammar,
            signal: generationSignal,
            onTextChunk: (text) => {
              stages.firstToken();
              output.push(text);
            },
          });
          choices.push(output.finish(response, metadata.stopReason));
          completionTokens += countOutputTokens();
        }
      } catch (error) {
        stages.end(completionTokens, error);
        throw error;
      }
      stages.end(completionTokens);
      return { choices, usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } };
    });
  } catch (error) {
    throw toProviderError(error, signal);
  }
}

export function createLlamaCppChat(pool: ModelPool): ChatProvider {
  return {
    chat: (request) => runChat(pool, request, request.signal),
    chatStream: (request) =>
      startEventStream<ChatStreamEvent>(request.signal, async (emit, signal) => {
        const { usage } = await runChat(pool, request, signal, emit);
        emit({ type: 'usage', usage });
      }),
  };
}
