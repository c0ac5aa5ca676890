import { useCallback } from 'react';
import { collectTextStream, type StreamStats } from '../../../lib/collect-text-stream';
import { postStream } from '../../../lib/post-stream';
import { useTextStream } from '../../../lib/use-text-stream';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../chat-types';

/** Streams one chat completion; `onText` receives the whole answer so far after every fragment. */
export async function streamChatCompletion(
  request: ChatCompletionRequest,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<{ text: string; stats: StreamStats }> {
  const startedAt = performance.now();
  const stream = await postStream<ChatCompletionChunk>('/v1/chat/completions', request, signal);
  return collectTextStream(stream, (chunk) => chunk.choices[0]?.delta?.content, onText, startedAt);
}

export function useChatStream() {
  const stream = useTextStream();
  const { run: runStream } = stream;
  const run = useCallback(
    (request: ChatCompletionRequest) => runStream((signal, onText) => streamChatCompletion(request, onText, signal)),
    [runStream],
  );
  return { ...stream, run };
}
