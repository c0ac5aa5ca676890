import { useCallback } from 'react';
import { collectTextStream, type StreamStats, type UsageFrame } from '../../../lib/collect-text-stream';
import { postStream } from '../../../lib/post-stream';
import { useTextStream } from '../../../lib/use-text-stream';

export interface AgentMessage {
  role: 'user' | 'assistant';
  content: string;
}

interface AgentChunk extends UsageFrame {
  choices: { delta?: { content?: string | null } }[];
}

/** Streams one answer of an agent (its instructions and tools are added by the gateway). */
export async function streamAgentCompletion(
  agentId: string,
  messages: AgentMessage[],
  onText: (text: string) => void,
  signal?: AbortSignal,
): Promise<{ text: string; stats: StreamStats }> {
  const startedAt = performance.now();
  const stream = await postStream<AgentChunk>(
    '/v1/agents/completions',
    { agent_id: agentId, messages, stream: true, stream_options: { include_usage: true } },
    signal,
  );
  return collectTextStream(stream, (chunk) => chunk.choices[0]?.delta?.content, onText, startedAt);
}

export function useAgentStream() {
  const stream = useTextStream();
  const { run: runStream } = stream;
  const run = useCallback(
    (agentId: string, messages: AgentMessage[]) =>
      runStream((signal, onText) => streamAgentCompletion(agentId, messages, onText, signal)),
    [runStream],
  );
  return { ...stream, run };
}
