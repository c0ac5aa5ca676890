import { useCallback, useState } from 'react';
import { collectTextStream, type StreamStats, type UsageFrame } from '../../../lib/collect-text-stream';
import { GatewayError } from '../../../lib/gateway-error';
import { postStream } from '../../../lib/post-stream';
import { useTextStream, type TextStreamOutcome } from '../../../lib/use-text-stream';
import type { ToolActivity } from '../chat-types';
import type { ResponsesRequest, ResponseStreamEvent } from '../responses-types';
import { ToolActivityTracker } from '../tool-activity-tracker';

/** What an answer already holds when a stream continues it (after an approval). */
export interface AnswerSoFar {
  text: string;
  tools: ToolActivity[];
}

interface Listeners {
  onText(text: string): void;
  onTools(tools: ToolActivity[]): void;
  onResponseId(id: string): void;
}

interface TextFrame extends UsageFrame {
  text?: string;
}

/** The Responses events as text fragments and usage; the MCP items go to the tracker on the way. */
async function* textFrames(
  events: AsyncIterable<ResponseStreamEvent>,
  tracker: ToolActivityTracker,
  listeners: Listeners,
): AsyncGenerator<TextFrame, void, undefined> {
  for await (const event of events) {
    if (tracker.apply(event)) listeners.onTools(tracker.activity);
    switch (event.type) {
      case 'response.created':
        listeners.onResponseId(event.response.id);
        break;
      case 'response.output_text.delta':
        yield { text: event.delta };
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const usage = event.response.usage;
        if (usage)
          yield {
            usage: {
              prompt_tokens: usage.input_tokens,
              completion_tokens: usage.output_tokens,
              total_tokens: usage.total_tokens,
            },
          };
        break;
      }
      case 'response.failed':
        throw new GatewayError({ message: event.response.error?.message ?? 'The response failed.', status: 200 });
      case 'error':
        throw new GatewayError({ message: event.message, status: 200, code: event.code });
    }
  }
}

/** Streams one response of POST /v1/responses, continuing `soFar`; the listeners get the whole answer after each change. */
export async function streamResponse(
  request: ResponsesRequest,
  soFar: AnswerSoFar,
  listeners: Listeners,
  signal?: AbortSignal,
): Promise<{ text: string; stats: StreamStats }> {
  const startedAt = performance.now();
  const stream = await postStream<ResponseStreamEvent>('/v1/responses', request, signal);
  const tracker = new ToolActivityTracker(soFar.tools);
  const frames = textFrames(stream.frames, tracker, listeners);
  const result = await collectTextStream(
    { ...stream, frames },
    (frame) => frame.text,
    (text) => listeners.onText(soFar.text + text),
    startedAt,
  );
  return { text: soFar.text + result.text, stats: result.stats };
}

/** Calls still running when a stream stopped or failed never report back: they are shown as cut off. */
function settle(tools: ToolActivity[], outcome: TextStreamOutcome): ToolActivity[] {
  if (outcome.status === 'done') return tools;
  const why =
    outcome.status === 'stopped' ? 'Stopped before the call finished.' : 'The answer failed before the call finished.';
  return tools.map((entry) =>
    entry.kind === 'call' && entry.state === 'calling' ? { ...entry, state: 'failed', error: why } : entry,
  );
}

export interface ResponseOutcome extends TextStreamOutcome {
  tools: ToolActivity[];
  responseId: string | null;
}

/** One response stream at a time, as useTextStream, with the answer's tool calls live in `tools`. */
export function useResponseStream() {
  const stream = useTextStream();
  const [tools, setTools] = useState<ToolActivity[]>([]);
  const { run: runStream } = stream;
  const run = useCallback(
    async (request: ResponsesRequest, soFar: AnswerSoFar): Promise<ResponseOutcome> => {
      let latest = soFar.tools;
      let responseId: string | null = null;
      setTools(latest);
      const listeners = (onText: (text: string) => void): Listeners => ({
        onText,
        onTools: (next) => setTools((latest = next)),
        onResponseId: (id) => (responseId = id),
      });
      const outcome = await runStream((signal, onText) => streamResponse(request, soFar, listeners(onText), signal));
      // A stream that failed before its first fragment still keeps what the answer held.
      return { ...outcome, text: outcome.text || soFar.text, tools: settle(latest, outcome), responseId };
    },
    [runStream],
  );
  return { ...stream, run, tools };
}
