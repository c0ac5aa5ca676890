import { useCallback } from 'react';
import type { CompletionRequest as CompletionBody } from '../../../../../gateway/src/api/completions/completion-schemas';
import { collectTextStream, type StreamStats, type UsageFrame } from '../../../lib/collect-text-stream';
import { postStream } from '../../../lib/post-stream';
import { useTextStream } from '../../../lib/use-text-stream';

/** The body the playground sends: one prompt, always streamed, with usage at the end. */
export type CompletionRequest = CompletionBody & {
  model: string;
  prompt: string;
  temperature: number;
  stream: true;
  stream_options: { include_usage: true };
};

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
