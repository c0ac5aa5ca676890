import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ConversationEntry } from '../../store/conversations-repository.js';
import { newId } from '../ids/ids.js';
import {
  resultText,
  type AssistantMessage,
  type LoopCallResult,
  type LoopCall,
  type LoopTool,
} from '../mcp/tool-loop.js';
import { drain, wholeStepDelta } from '../mcp/whole-step.js';
import { outputStamp } from './conversation-entries.js';

/** One of Mistral's conversation server-sent events; `type` is also the SSE event name. */
export type ConversationStreamEvent = { type: string; created_at: string } & Record<string, unknown>;

export interface ConversationUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const conversationUsage = (usage: TokenUsage): ConversationUsage => ({
  prompt_tokens: usage.prompt_tokens,
  completion_tokens: usage.completion_tokens,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
});

export interface StreamedTurnContext {
  conversationId: string;
  model: string;
  agentId: string | null;
  startedAt: number;
  now: () => number;
}

type Output = ConversationEntry & { outputIndex: number };
type McpToolOf = (name: string) => Pick<LoopTool, 'server' | 'needsApproval' | 'tool'> | undefined;

/**
 * A conversation turn's output entries as model calls and MCP tool calls produce them, and Mistral's
 * events that stream them: conversation.response.started, message.output.delta per text piece,
 * function.call.delta per piece of a call the client runs (or, whole, of an MCP call that waits for
 * confirmation: `confirmation_status: "pending"`), tool.execution.started and .done around each MCP
 * call the gateway runs (a `tool.execution` entry), then conversation.response.done with the usage.
 * A whole (not streamed) turn uses the same writer and leaves the events unread.
 */
export class ConversationOutputWriter {
  private readonly outputs: Output[] = [];
  private message: (Output & { content: string }) | undefined;
  private readonly stepCalls = new Map<number, Output & { arguments: string }>();
  private readonly executions = new Map<string, Output>();

  constructor(
    private readonly context: StreamedTurnContext,
    private readonly mcpTool: McpToolOf = () => undefined,
  ) {}

  started(): ConversationStreamEvent {
    return {
      type: 'conversation.response.started',
      created_at: this.at(),
      conversation_id: this.context.conversationId,
    };
  }

  *delta(event: ChatStreamEvent): Generator<ConversationStreamEvent> {
    if (event.type !== 'delta' || event.index !== 0) return;
    if (event.content) {
      if (!this.message) {
        this.message = {
          ...this.stamp(),
          id: newId('msg_'),
          type: 'message.output',
          role: 'assistant',
          content: '',
          outputIndex: this.outputs.length,
        };
        this.outputs.push(this.message);
      }
      this.message.content += event.content;
      yield {
        type: 'message.output.delta',
        created_at: this.at(),
        output_index: this.message.outputIndex,
        id: this.message.id,
        content_index: 0,
        model: this.context.model,
        agent_id: this.context.agentId,
        role: 'assistant',
        content: event.content,
      };
    }
    for (const delta of event.tool_calls ?? []) {
      let call = this.stepCalls.get(delta.index);
      if (!call) {
        const name = delta.function?.name ?? '';
        call = {
          ...this.stamp(),
          id: newId('fc_'),
          type: 'function.call',
          tool_call_id: delta.id ?? newId('call_'),
          name,
          arguments: '',
          // An MCP call's entry is written when it runs, or when the step ends if it waits for confirmation.
          outputIndex: this.mcpTool(name) ? -1 : this.outputs.length,
        };
        this.stepCalls.set(delta.index, call);
        if (call.outputIndex >= 0) this.outputs.push(call);
      } else if (delta.function?.name) call.name = `${String(call.name)}${delta.function.name}`;
      const piece = delta.function?.arguments ?? '';
      call.arguments += piece;
      if (call.outputIndex >= 0) yield this.callDelta(call, piece);
    }
  }

  /** A whole model call's message, as the entries a stream of it would give. */
  wholeStep(message: AssistantMessage): void {
    drain(this.delta(wholeStepDelta(message)));
    drain(this.endStep());
  }

  /** A model call ended: MCP calls that wait for confirmation become pending function.call entries. */
  *endStep(): Generator<ConversationStreamEvent> {
    this.message = undefined;
    for (const call of this.stepCalls.values()) {
      const tool = call.outputIndex < 0 ? this.mcpTool(String(call.name)) : undefined;
      if (!tool?.needsApproval) continue;
      call.outputIndex = this.outputs.length;
      call.confirmation_status = 'pending';
      this.outputs.push(call);
      yield { ...this.callDelta(call, call.arguments), confirmation_status: 'pending' };
    }
    this.stepCalls.clear();
  }

  *toolStarted(call: LoopCall): Generator<ConversationStreamEvent> {
    const entry: Output = {
      ...this.stamp(),
      completed_at: null,
      id: newId('tex_'),
      type: 'tool.execution',
      name: call.tool.tool.name,
      arguments: call.arguments,
      info: { server: call.tool.server, tool_call_id: call.id },
      outputIndex: this.outputs.length,
    };
    this.outputs.push(entry);
    this.executions.set(call.id, entry);
    yield {
      type: 'tool.execution.started',
      created_at: this.at(),
      output_index: entry.outputIndex,
      id: entry.id,
      model: this.context.model,
      agent_id: this.context.agentId,
      name: entry.name,
      arguments: call.arguments,
    };
  }

  /** A call ended (a refused call ends without starting); its entry's `info` holds the outcome and the result. */
  *toolDone(call: LoopCall, result: LoopCallResult): Generator<ConversationStreamEvent> {
    if (!this.executions.has(call.id)) for (const _ of this.toolStarted(call));
    const entry = this.executions.get(call.id)!;
    const text = resultText(result);
    entry.info = {
      ...(entry.info as Record<string, unknown>),
      outcome: result.outcome,
      is_error: result.isError,
      ...(result.isError ? { error: text } : { output: text }),
      duration_ms: result.durationMs,
      truncated: result.truncated,
    };
    entry.completed_at = this.at();
    yield {
      type: 'tool.execution.done',
      created_at: this.at(),
      output_index: entry.outputIndex,
      id: entry.id,
      name: entry.name,
      info: entry.info,
    };
  }

  /** A call the step limit left unrun: an entry that says so. */
  *notRun(call: LoopCall, why: string): Generator<ConversationStreamEvent> {
    yield* this.toolDone(call, {
      outcome: 'failed',
      isError: true,
      content: [{ type: 'text', text: why }],
      durationMs: 0,
      truncated: false,
    });
  }

  /** The last event, and the turn's output entries (with the ids the events carried) to store. */
  done(usage: TokenUsage): { event: ConversationStreamEvent; outputs: ConversationEntry[] } {
    if (this.outputs.length === 0)
      this.outputs.push({
        ...this.stamp(),
        id: newId('msg_'),
        type: 'message.output',
        role: 'assistant',
        content: '',
        outputIndex: 0,
      });
    const completedAt = this.at();
    return {
      event: { type: 'conversation.response.done', created_at: completedAt, usage: conversationUsage(usage) },
      outputs: this.outputs.map(
        ({ outputIndex: _index, ...entry }) =>
          ({
            ...entry,
            completed_at: entry.type === 'tool.execution' ? (entry.completed_at ?? completedAt) : completedAt,
          }) as ConversationEntry,
      ),
    };
  }

  private callDelta(call: Output & { arguments: string }, piece: string): ConversationStreamEvent {
    return {
      type: 'function.call.delta',
      created_at: this.at(),
      output_index: call.outputIndex,
      id: call.id,
      model: this.context.model,
      agent_id: this.context.agentId,
      name: call.name,
      tool_call_id: call.tool_call_id,
      arguments: piece,
    };
  }

  private stamp() {
    return outputStamp(this.context.model, this.context.agentId, this.context.startedAt, this.context.now());
  }

  private at(): string {
    return new Date(this.context.now()).toISOString();
  }
}
