import { useCallback } from 'react';
import { collectTextStream, type StreamStats, type UsageFrame } from '../../../lib/collect-text-stream';
import { postStream } from '../../../lib/post-stream';
import { useTextStream } from '../../../lib/use-text-stream';

export interface CompletionRequest {
  model: string;
  prompt: string;
  max_tokens?: number;
  temperature: number;
  top_p: number;
  stop?: string[];
  seed?: number;
  stream: true;
  stream_options: { include_usage: true };
}

interface CompletionChunk extends UsageFrame {
  object: 'text_completion';
  choices: { index: number; text: string; finish_reason: string | null }[];
}

export async function streamCompletion(
  request: CompletionRequest,
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<{ text: string; stats: StreamStats }> {
  const startedAt = performance.now();
  const stream = await postStream<CompletionChunk>('/v1/completions', request, signal);
  return collectTextStream(stream, (chunk) => chunk.choices[0]?.text, onText, startedAt);
}

export function useCompletionStream() {
  const stream = useTextStream();
  const { run: runStream } = stream;
  const run = useCallback(
    (request: CompletionRequest) => runStream((signal, onText) => streamCompletion(request, onText, signal)),
    [runStream],
  );
  return { ...stream, run };
}
