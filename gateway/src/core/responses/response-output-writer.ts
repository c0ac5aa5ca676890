import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { FinishReason, TokenUsage } from '../../providers/contracts/sampling.js';
import type { McpTool } from '../../wire/mcp-server-schemas.js';
import type {
  FunctionCallItemType,
  McpApprovalRequestItemType,
  McpCallItemType,
  OutputItemType,
  OutputMessageType,
  ResponseObjectType,
} from '../../wire/responses-schemas.js';
import { newId } from '../ids/ids.js';
import {
  resultText,
  type AssistantMessage,
  type LoopCallResult,
  type LoopCall,
  type LoopTool,
} from '../mcp/tool-loop.js';
import { drain, wholeStepDelta } from '../mcp/whole-step.js';
import type { ResponseStreamEvent } from './responses-outcome.js';

/** What the writer needs of an MCP tool the model may call. */
type McpToolOf = (name: string) => Pick<LoopTool, 'server' | 'needsApproval' | 'tool'> | undefined;

type OpenCall =
  | { kind: 'function'; item: FunctionCallItemType; index: number }
  | { kind: 'mcp'; item: McpCallItemType; index: number }
  | { kind: 'approval'; item: McpApprovalRequestItemType };

export const messageItem = (text: string, status: OutputMessageType['status']): OutputMessageType => ({
  id: newId('msg_'),
  type: 'message',
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

export function responsesUsage(usage: TokenUsage): NonNullable<ResponseObjectType['usage']> {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
}

/**
 * Builds a response's output items from model calls and MCP tool calls, and the Responses events that
 * stream them: per item .output_item.added, its text (.content_part.added, .output_text.delta…,
 * .output_text.done, .content_part.done), a function call's arguments (.function_call_arguments.*),
 * an MCP call's (.mcp_call_arguments.*) and run (.mcp_call.in_progress, .completed or .failed), an MCP
 * tool list (.mcp_list_tools.*), then .output_item.done. A whole (not streamed) response uses the same
 * writer and leaves the events unread.
 */
export class ResponseOutputWriter {
  readonly output: OutputItemType[] = [];
  private sequence = 0;
  private message: { item: OutputMessageType; index: number; text: string } | undefined;
  /** This step's tool calls by their delta index, and every open call by its tool-call id. */
  private readonly stepCalls = new Map<number, string>();
  private readonly calls = new Map<string, OpenCall>();

  constructor(
    private readonly skeleton: ResponseObjectType,
    private readonly mcpTool: McpToolOf = () => undefined,
  ) {}

  *start(): Generator<ResponseStreamEvent> {
    yield this.event('response.created', { response: this.skeleton });
    yield this.event('response.in_progress', { response: this.skeleton });
  }

  /** A streamed model call's event (first choice). */
  *delta(chunk: ChatStreamEvent): Generator<ResponseStreamEvent> {
    if (chunk.type !== 'delta' || chunk.index !== 0) return;
    if (chunk.content) yield* this.text(chunk.content);
    for (const delta of chunk.tool_calls ?? []) {
      const known = this.stepCalls.get(delta.index);
      const open = known === undefined ? undefined : this.calls.get(known);
      if (!open) {
        yield* this.closeMessage();
        const id = delta.id ?? newId('call_');
        this.stepCalls.set(delta.index, id);
        yield* this.openCall(id, delta.function?.name ?? '', delta.function?.arguments ?? '');
        continue;
      }
      if (open.kind === 'function' && delta.function?.name) open.item.name += delta.function.name;
      const piece = delta.function?.arguments ?? '';
      if (piece === '') continue;
      open.item.arguments += piece;
      if (open.kind === 'function')
        yield this.event('response.function_call_arguments.delta', {
          item_id: open.item.id,
          output_index: open.index,
          delta: piece,
        });
      else if (open.kind === 'mcp')
        yield this.event('response.mcp_call_arguments.delta', {
          item_id: open.item.id,
          output_index: open.index,
          delta: piece,
        });
    }
  }

  /** A whole model call's message, as the items a stream of it would give. */
  wholeStep(message: AssistantMessage): void {
    drain(this.delta(wholeStepDelta(message)));
    drain(this.endStep());
  }

  /** A model call ended: its text and function calls are done; its MCP calls wait to run (or for approval). */
  *endStep(): Generator<ResponseStreamEvent> {
    yield* this.closeMessage();
    for (const id of this.stepCalls.values()) {
      const open = this.calls.get(id)!;
      if (open.kind === 'function') {
        yield this.event('response.function_call_arguments.done', {
          item_id: open.item.id,
          output_index: open.index,
          name: open.item.name,
          arguments: open.item.arguments,
        });
        yield* this.done(open.index, { ...open.item, status: 'completed' });
        this.calls.delete(id);
      } else if (open.kind === 'mcp') {
        yield this.event('response.mcp_call_arguments.done', {
          item_id: open.item.id,
          output_index: open.index,
          arguments: open.item.arguments,
        });
      } else {
        const index = this.output.push(open.item) - 1;
        yield this.event('response.output_item.added', { output_index: index, item: open.item });
        yield* this.done(index, open.item);
        this.calls.delete(id);
      }
    }
    this.stepCalls.clear();
  }

  /** A server's tool list, as the model is offered it. */
  *listTools(server: string, tools: McpTool[]): Generator<ResponseStreamEvent> {
    const item = { id: newId('mcpl_'), type: 'mcp_list_tools' as const, server_label: server, tools: [] };
    const index = this.output.push(item) - 1;
    yield this.event('response.output_item.added', { output_index: index, item });
    yield this.event('response.mcp_list_tools.in_progress', { item_id: item.id, output_index: index });
    yield this.event('response.mcp_list_tools.completed', { item_id: item.id, output_index: index });
    yield* this.done(index, {
      ...item,
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description || null,
        input_schema: tool.input_schema,
        annotations: { read_only: tool.read_only },
      })),
    });
  }

  /** An approved call from an earlier response, about to run. */
  *resumedCall(call: LoopCall): Generator<ResponseStreamEvent> {
    yield* this.openCall(call.id, call.name, call.arguments, call.id);
  }

  *callStarted(call: LoopCall): Generator<ResponseStreamEvent> {
    const open = this.calls.get(call.id);
    if (open?.kind !== 'mcp') return;
    yield this.event('response.mcp_call.in_progress', { item_id: open.item.id, output_index: open.index });
  }

  *callDone(call: LoopCall, result: LoopCallResult): Generator<ResponseStreamEvent> {
    let open = this.calls.get(call.id);
    // A refused call never ran: its item is written now.
    if (!open) {
      for (const _ of this.openCall(call.id, call.name, call.arguments, call.id));
      open = this.calls.get(call.id);
    }
    if (open?.kind !== 'mcp') return;
    const text = resultText(result);
    const item: McpCallItemType = {
      ...open.item,
      status: result.isError ? 'failed' : 'completed',
      output: result.isError ? null : text,
      error: result.isError ? text : null,
      duration_ms: result.durationMs,
    };
    yield this.event(result.isError ? 'response.mcp_call.failed' : 'response.mcp_call.completed', {
      item_id: item.id,
      output_index: open.index,
    });
    this.calls.delete(call.id);
    yield* this.done(open.index, item);
  }

  /** A call the step limit left unrun. */
  *notRun(call: LoopCall, why: string): Generator<ResponseStreamEvent> {
    const open = this.calls.get(call.id);
    if (!open || open.kind === 'function') return;
    this.calls.delete(call.id);
    if (open.kind === 'approval') return;
    yield this.event('response.mcp_call.failed', { item_id: open.item.id, output_index: open.index });
    yield* this.done(open.index, { ...open.item, status: 'incomplete', error: why });
  }

  /** The finished response: `incomplete` when the output was cut (max_output_tokens, a content filter, `incomplete`). */
  finish(finishReason: FinishReason, usage: TokenUsage, incomplete?: string): ResponseObjectType {
    const cut =
      finishReason === 'length'
        ? 'max_output_tokens'
        : finishReason === 'content_filter'
          ? 'content_filter'
          : undefined;
    const reason = incomplete ?? cut;
    return {
      ...this.skeleton,
      status: reason ? 'incomplete' : 'completed',
      completed_at: reason ? null : Math.floor(Date.now() / 1000),
      incomplete_details: reason ? { reason } : null,
      output: this.output.map((item) => (cut && item.type === 'message' ? { ...item, status: 'incomplete' } : item)),
      usage: responsesUsage(usage),
    };
  }

  /** The stream's last event. */
  finished(response: ResponseObjectType): ResponseStreamEvent {
    return this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  }

  private *openCall(
    id: string,
    name: string,
    args: string,
    approvalRequestId?: string,
  ): Generator<ResponseStreamEvent> {
    const mcp = this.mcpTool(name);
    if (mcp?.needsApproval && approvalRequestId === undefined) {
      this.calls.set(id, {
        kind: 'approval',
        item: { id, type: 'mcp_approval_request', server_label: mcp.server, name: mcp.tool.name, arguments: args },
      });
      return;
    }
    if (mcp) {
      const item: McpCallItemType = {
        id: newId('mcp_'),
        type: 'mcp_call',
        server_label: mcp.server,
        name: mcp.tool.name,
        arguments: '',
        status: 'in_progress',
        output: null,
        error: null,
        ...(approvalRequestId ? { approval_request_id: approvalRequestId } : {}),
      };
      const index = this.output.push(item) - 1;
      this.calls.set(id, { kind: 'mcp', item, index });
      yield this.event('response.output_item.added', { output_index: index, item: { ...item } });
      item.arguments = args;
      if (args !== '')
        yield this.event('response.mcp_call_arguments.delta', { item_id: item.id, output_index: index, delta: args });
      return;
    }
    const item: FunctionCallItemType = {
      id: newId('fc_'),
      type: 'function_call',
      status: 'in_progress',
      call_id: id,
      name,
      arguments: '',
    };
    const index = this.output.push(item) - 1;
    this.calls.set(id, { kind: 'function', item, index });
    yield this.event('response.output_item.added', { output_index: index, item: { ...item } });
    item.arguments = args;
    if (args !== '')
      yield this.event('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: index,
        delta: args,
      });
  }

  private *text(piece: string): Generator<ResponseStreamEvent> {
    if (!this.message) {
      const item: OutputMessageType = { ...messageItem('', 'in_progress'), content: [] };
      this.message = { item, index: this.output.push(item) - 1, text: '' };
      yield this.event('response.output_item.added', { output_index: this.message.index, item });
      yield this.event('response.content_part.added', {
        item_id: item.id,
        output_index: this.message.index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      });
    }
    this.message.text += piece;
    yield this.event('response.output_text.delta', {
      item_id: this.message.item.id,
      output_index: this.message.index,
      content_index: 0,
      delta: piece,
      logprobs: [],
    });
  }

  private *closeMessage(): Generator<ResponseStreamEvent> {
    if (!this.message) return;
    const { item, index, text } = this.message;
    this.message = undefined;
    const part = { type: 'output_text' as const, text, annotations: [], logprobs: [] };
    yield this.event('response.output_text.done', {
      item_id: item.id,
      output_index: index,
      content_index: 0,
      text,
      logprobs: [],
    });
    yield this.event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part });
    yield* this.done(index, { ...item, status: 'completed', content: [part] });
  }

  private *done(index: number, item: OutputItemType): Generator<ResponseStreamEvent> {
    this.output[index] = item;
    yield this.event('response.output_item.done', { output_index: index, item });
  }

  private event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
    return { type, sequence_number: this.sequence++, ...fields };
  }
}
