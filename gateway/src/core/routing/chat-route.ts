import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import type { ModelRegistry, ModelRoute } from './model-registry.js';
import type { RouteRunner } from './route-runner.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';

/** The language model other features lean on (schema filling, document answers): the default chat model if it is served, else any chat route. */
export function helperChatRoute(models: ModelRegistry): ModelRoute | undefined {
  const routes = models.withCapability('chat');
  return routes.find((route) => route.id === DEFAULT_CHAT_MODEL) ?? routes[0];
}

/** One non-streamed chat turn on a route (with its retries and fallbacks); the answer text and usage. */
export async function askChat(
  runner: RouteRunner,
  route: ModelRoute,
  messages: ChatMessage[],
  options: { signal: AbortSignal; responseFormat?: ResponseFormat; maxTokens?: number },
): Promise<{ text: string; usage: TokenUsage; route: ModelRoute }> {
  const { value, route: served } = await runner.invoke(route, 'chat', options.signal, (chat, model, attemptSignal) =>
    chat.chat({
      model,
      messages,
      temperature: 0,
      max_tokens: options.maxTokens ?? 1024,
      response_format: options.responseFormat,
      signal: attemptSignal,
    }),
  );
  return { text: value.choices[0]?.message.content ?? '', usage: value.usage, route: served };
}
