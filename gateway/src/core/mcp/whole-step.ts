import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { AssistantMessage } from './tool-loop.js';

/** The loop's output writers take a whole model call as the one delta a stream of it would give. */
export function wholeStepDelta(message: AssistantMessage): ChatStreamEvent {
  return {
    type: 'delta',
    index: 0,
    content: message.content ?? undefined,
    tool_calls: message.tool_calls?.map((call, index) => ({
      index,
      id: call.id,
      type: 'function' as const,
      function: call.function,
    })),
  };
}

/** Runs a writer's event generator for its effect on the output kept, the events not wanted. */
export function drain(events: Iterable<unknown>): void {
  for (const _ of events);
}
