import type { ChatSettings, Conversation } from './chat-types';
import { createConversation, createMessage, DEFAULT_SETTINGS } from './stores/conversations-store';

type WireContent = string | { type?: string; text?: string; image_url?: string | { url?: string } }[];

const textOf = (content: WireContent | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? []).map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('\n');

const imagesOf = (content: WireContent | undefined): string[] =>
  typeof content === 'string' || !content
    ? []
    : content
        .flatMap((p) =>
          p.type === 'image_url' ? [typeof p.image_url === 'string' ? p.image_url : (p.image_url?.url ?? '')] : [],
        )
        .filter(Boolean);

/** A chat completion request body (from the request log) as a playground conversation with the same settings. */
export function conversationFromRequest(body: unknown): Conversation | null {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { messages?: unknown }).messages)) return null;
  const request = body as Record<string, unknown> & { messages: { role?: string; content?: WireContent }[] };
  const num = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  const stop = Array.isArray(request.stop)
    ? request.stop.filter((s): s is string => typeof s === 'string')
    : typeof request.stop === 'string'
      ? [request.stop]
      : [];
  const format = (request.response_format as { type?: string } | undefined)?.type;
  const settings: ChatSettings = {
    ...DEFAULT_SETTINGS,
    model: typeof request.model === 'string' ? request.model : '',
    system: request.messages
      .filter((m) => m.role === 'system')
      .map((m) => textOf(m.content))
      .join('\n'),
    temperature: num(request.temperature, DEFAULT_SETTINGS.temperature),
    topP: num(request.top_p, DEFAULT_SETTINGS.topP),
    maxTokens: typeof request.max_tokens === 'number' ? request.max_tokens : null,
    stop: stop.join('\n'),
    seed: typeof request.seed === 'number' ? request.seed : null,
    presencePenalty: typeof request.presence_penalty === 'number' ? request.presence_penalty : null,
    frequencyPenalty: typeof request.frequency_penalty === 'number' ? request.frequency_penalty : null,
    responseFormat: format === 'json_object' ? 'json_object' : 'text',
  };
  const conversation = createConversation(settings);
  const messages = request.messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => ({
      ...createMessage(m.role as 'user' | 'assistant', textOf(m.content), imagesOf(m.content)),
      ...(m.role === 'assistant' ? { status: 'done' as const } : {}),
    }));
  const first = messages.find((m) => m.role === 'user' && m.content.trim());
  return {
    ...conversation,
    messages,
    title: first ? `Logged: ${first.content.trim().slice(0, 40)}` : 'From the request log',
  };
}
