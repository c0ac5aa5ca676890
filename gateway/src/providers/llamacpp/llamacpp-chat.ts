import type { ChatChoice, ChatProvider, ChatRequest, ChatResult, ChatStreamEvent } from '../types.js';
import { startOutputTokenCount, toFinishReason, toGenerationOptions } from './generation-options.js';
import type { ModelPool } from './model-pool.js';
import { createResponseGrammar } from './response-grammar.js';
import { startEventStream } from './start-event-stream.js';
import { toChatHistory, toolsUnsupported } from './to-chat-history.js';
import { toProviderError } from './to-provider-error.js';

type Emit = (event: ChatStreamEvent) => void;

/** Runs the `n` choices one after another in one queue turn, emitting stream events when asked to. */
async function runChat(pool: ModelPool, request: ChatRequest, signal: AbortSignal, emit?: Emit): Promise<ChatResult> {
  try {
    // With tool_choice "none" the tools could never be called, so they are simply not offered.
    if (request.tools && request.tools.length > 0 && request.tool_choice !== 'none') throw toolsUnsupported('tools');
    const history = toChatHistory(request.messages);
    return await pool.model(request.model).use(signal, async (loaded, generationSignal) => {
      const { contextText } = loaded.chat.chatWrapper.generateContextState({ chatHistory: history });
      const promptTokens = contextText.tokenize(loaded.model.tokenizer).length;
      const options = toGenerationOptions(request, promptTokens, loaded.contextSize);
      const grammar = await createResponseGrammar(loaded.llama, request.response_format);
      const choices: ChatChoice[] = [];
      let completionTokens = 0;
      for (let index = 0; index < (request.n ?? 1); index++) {
        const countOutputTokens = startOutputTokenCount(loaded.sequence);
        let role: { role?: 'assistant' } = { role: 'assistant' };
        const { response, metadata } = await loaded.chat.generateResponse(history, {
          ...options,
          grammar,
          signal: generationSignal,
          onTextChunk: (content) => {
            if (!emit || content.length === 0) return;
            emit({ type: 'delta', index, ...role, content });
            role = {};
          },
        });
        const finishReason = toFinishReason(metadata.stopReason);
        if (emit) {
          if (role.role) emit({ type: 'delta', index, role: 'assistant', content: '' });
          emit({ type: 'finish', index, finish_reason: finishReason });
        }
        choices.push({ index, message: { role: 'assistant', content: response }, finish_reason: finishReason });
        completionTokens += countOutputTokens();
      }
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
