import type { ChatChoice, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { FinishReason, TokenUsage } from '../../providers/contracts/sampling.js';
import type { ChatMessage, ToolCall } from '../../wire/chat-message-schemas.js';
import type { McpTool } from '../../wire/mcp-server-schemas.js';
import type { ToolChoice, ToolDefinition } from '../../wire/tool-schemas.js';
import { batchedEvents } from '../../streaming/event-batches.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ChatService, ChatTurn } from '../chat/chat-service.js';
import { newId } from '../ids/ids.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { ToolCallResult } from './mcp-connection.js';

/**
 * A call's result in the loop: the server's, `refused` for a call a person did not approve, or
 * `not_run` for a call past the request's `maxCalls`.
 */
export type LoopCallResult = Omit<ToolCallResult, 'outcome'> & {
  outcome: ToolCallResult['outcome'] | 'refused' | 'not_run';
};

/** One MCP tool offered to the model, bound to the server that runs it. */
export interface LoopTool {
  /** The function name the model sees (the tool's own name unless two servers share it). */
  name: string;
  /** The server as the request named it (a Responses `server_label`, an agent's `connector_id`). */
  server: string;
  tool: McpTool;
  /** The call waits for a person's approval before it runs. */
  needsApproval: boolean;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult>;
}

/** A call the model made of an MCP tool: `id` is its tool-call id, `arguments` its JSON text. */
export interface LoopCall {
  id: string;
  name: string;
  arguments: string;
  tool: LoopTool;
}

export type AssistantMessage = ChatChoice['message'];

export type ToolLoopEvent =
  /** A streamed step's event (first choice only); a tool call's first delta always carries its id. */
  | { type: 'step.delta'; event: ChatStreamEvent }
  /** A model call ended: its whole message (also for a streamed step). */
  | { type: 'step.done'; step: number; message: AssistantMessage; finishReason: FinishReason; route: ModelRoute }
  | { type: 'call.started'; call: LoopCall }
  | { type: 'call.done'; call: LoopCall; result: LoopCallResult };

export interface ToolLoopEnd {
  /**
   * answered: the last model call used no MCP tool; client_tools: it called function tools the client
   * runs; approval: `pending` waits for approval; step_limit: the model called MCP tools at the last
   * step allowed although none were offered to it, and `pending` was not run; cancelled: the client
   * went away during the calls.
   */
  reason: 'answered' | 'client_tools' | 'approval' | 'step_limit' | 'cancelled';
  pending: LoopCall[];
  finishReason: FinishReason;
  /** Every model call's usage, summed. */
  usage: TokenUsage;
  route: ModelRoute;
}

/** A call a person answered: approved calls run before the first model call, refused ones tell the model so. */
export interface ApprovedCall {
  call: LoopCall;
  approved: boolean;
  reason?: string | null;
}

export interface ToolLoopRequest {
  chat: ChatService;
  route: ModelRoute;
  /** The request's turn; its `tools` are the client's function tools (the MCP tools are added). */
  turn: ChatTurn;
  tools: LoopTool[];
  stream: boolean;
  /** Model calls in all; the last one is offered no MCP tool, so that it answers. */
  maxSteps: number;
  /**
   * MCP calls the loop may run in all (Responses' `max_tool_calls`): the model's calls past it are
   * not run (it is told so), and once it is spent no MCP tool is offered.
   */
  maxCalls?: number;
  meter: UsageMeter;
  signal: AbortSignal;
  resumed?: ApprovedCall[];
}

/** What a refused call gives the model instead of a result. */
export function refusedResult(call: LoopCall, reason?: string | null): LoopCallResult {
  return {
    outcome: 'refused',
    isError: true,
    content: [
      {
        type: 'text',
        text: `The user refused the call of "${call.tool.tool.name}" on the MCP server "${call.tool.server}"${reason ? `: ${reason}` : ''}. Do not call it again for this request.`,
      },
    ],
    durationMs: 0,
    truncated: false,
  };
}

/** What a call past the request's `maxCalls` gives the model instead of a result. */
function notRunResult(maxCalls: number): LoopCallResult {
  return {
    outcome: 'not_run',
    isError: true,
    content: [
      {
        type: 'text',
        text: `Not run: this request allows ${maxCalls} tool ${maxCalls === 1 ? 'call' : 'calls'} (max_tool_calls), all made. Answer with what you have.`,
      },
    ],
    durationMs: 0,
    truncated: false,
  };
}

/** A tool result as the text of the `tool` message the model reads: text blocks as they are, other blocks as JSON. */
export function resultText(result: Pick<LoopCallResult, 'content' | 'structuredContent'>): string {
  const parts = result.content.map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? block.text : JSON.stringify(block),
  );
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

/**
 * Runs the server-side tool loop shared by the Responses API and conversations: model → MCP tool
 * calls → results → model, until the model answers, calls a function tool the client runs, calls a
 * tool that needs approval, or `maxSteps` model calls were made (the last is offered no MCP tool).
 * Every model call goes through the
 * chat service (checks, routing, traces) and adds its usage to the request's bill; every tool call
 * goes through the MCP service (permission, timeout, size cap, the `execute_tool` span).
 */
export async function* runToolLoop(request: ToolLoopRequest): AsyncGenerator<ToolLoopEvent, ToolLoopEnd> {
  const { chat, tools, signal } = request;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const clientTools = request.turn.tools ?? [];
  const definitions = [...clientTools, ...tools.map(toolDefinition)];
  const messages = [...request.turn.messages];
  const meter = stepMeter(request.meter);
  const usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const maxCalls = request.maxCalls ?? Infinity;
  let callsRun = 0;

  if (request.resumed?.length) {
    messages.push(
      assistantWithCalls(
        null,
        request.resumed.map(({ call }) => call),
      ),
    );
    for (const { call, approved, reason } of request.resumed) {
      const result = approved ? yield* runCall(call, signal) : refusedResult(call, reason);
      if (approved) callsRun++;
      else yield { type: 'call.done', call, result };
      messages.push(toolMessage(call, result));
    }
  }

  for (let step = 1; ; step++) {
    const offerMcp = step < request.maxSteps && callsRun < maxCalls;
    const offered = offerMcp ? definitions : clientTools;
    const turn: ChatTurn = {
      ...request.turn,
      messages: [...messages],
      tools: offered.length > 0 ? offered : undefined,
      // A forced tool choice asks for a call first; the steps after it may answer.
      tool_choice:
        offered.length === 0
          ? undefined
          : step === 1
            ? request.turn.tool_choice
            : laterChoice(request.turn.tool_choice),
    };
    const answer = yield* modelStep(chat, request.route, turn, request.stream, meter, signal);
    usage.prompt_tokens += answer.usage.prompt_tokens;
    usage.completion_tokens += answer.usage.completion_tokens;
    yield { type: 'step.done', step, message: answer.message, finishReason: answer.finishReason, route: answer.route };

    const calls = answer.message.tool_calls ?? [];
    const mcpCalls: LoopCall[] = calls.flatMap((call) => {
      const tool = byName.get(call.function.name);
      return tool ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments, tool }] : [];
    });
    const end = (reason: ToolLoopEnd['reason'], pending: LoopCall[] = []): ToolLoopEnd => ({
      reason,
      pending,
      finishReason: answer.finishReason,
      usage,
      route: answer.route,
    });
    const clientCalls = calls.length > mcpCalls.length;
    if (mcpCalls.length === 0) return end(clientCalls ? 'client_tools' : 'answered');
    if (!offerMcp) return end('step_limit', mcpCalls);

    messages.push(assistantWithCalls(answer.message.content, mcpCalls));
    const pending: LoopCall[] = [];
    for (const call of mcpCalls) {
      if (callsRun >= maxCalls) {
        const result = notRunResult(maxCalls);
        yield { type: 'call.done', call, result };
        messages.push(toolMessage(call, result));
      } else if (call.tool.needsApproval) pending.push(call);
      else {
        callsRun++;
        messages.push(toolMessage(call, yield* runCall(call, signal)));
      }
    }
    // The client left during the calls: no further model call.
    if (signal.aborted) return end('cancelled');
    if (pending.length > 0) return end('approval', pending);
    if (clientCalls) return end('client_tools');
  }
}

/** The MCP tool as a function tool of the chat turn. */
function toolDefinition(tool: LoopTool): ToolDefinition {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.tool.description ? { description: tool.tool.description } : {}),
      parameters: tool.tool.input_schema,
    },
  };
}

function laterChoice(choice: ToolChoice | undefined): ToolChoice | undefined {
  return choice === 'none' ? 'none' : choice === undefined ? undefined : 'auto';
}

function assistantWithCalls(content: string | null, calls: LoopCall[]): ChatMessage {
  return {
    role: 'assistant',
    content,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

function toolMessage(call: LoopCall, result: LoopCallResult): ChatMessage {
  return { role: 'tool', tool_call_id: call.id, content: resultText(result) };
}

async function* runCall(call: LoopCall, signal: AbortSignal): AsyncGenerator<ToolLoopEvent, ToolCallResult> {
  yield { type: 'call.started', call };
  const args = parseArguments(call.arguments);
  const result =
    typeof args === 'string'
      ? {
          outcome: 'tool_error' as const,
          isError: true,
          content: [{ type: 'text', text: args }],
          durationMs: 0,
          truncated: false,
        }
      : await call.tool.call(args, signal);
  yield { type: 'call.done', call, result };
  return result;
}

/** The call's arguments as an object, or what is wrong with them (told to the model as the call's error). */
function parseArguments(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // told below
  }
  return `The arguments are not a JSON object: ${text.slice(0, 200)}. Call the tool again with a JSON object that matches its input schema.`;
}

interface StepAnswer {
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: TokenUsage;
  route: ModelRoute;
}

/** One model call: whole, or streamed with its events passed on (tool calls' ids filled in) and its message assembled. */
async function* modelStep(
  chat: ChatService,
  route: ModelRoute,
  turn: ChatTurn,
  stream: boolean,
  meter: UsageMeter,
  signal: AbortSignal,
): AsyncGenerator<ToolLoopEvent, StepAnswer> {
  const answer = await chat.complete(route, turn, stream, meter, signal);
  if (answer.kind === 'json') {
    const choice = answer.result.choices[0];
    return {
      message: choice?.message ?? { role: 'assistant', content: '' },
      finishReason: choice?.finish_reason ?? 'stop',
      usage: answer.result.usage,
      route: answer.route,
    };
  }
  let content = '';
  let finishReason: FinishReason = 'stop';
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const calls = new Map<number, ToolCall>();
  for await (const event of batchedEvents(answer.batches)) {
    if (event.type === 'usage') {
      usage = event.usage;
      continue;
    }
    if (event.index !== 0) continue;
    if (event.type === 'finish') {
      finishReason = event.finish_reason;
      yield { type: 'step.delta', event };
      continue;
    }
    content += event.content ?? '';
    const deltas = event.tool_calls?.map((delta) => {
      let call = calls.get(delta.index);
      if (!call) {
        call = { id: delta.id ?? newId('call_'), type: 'function', function: { name: '', arguments: '' } };
        calls.set(delta.index, call);
      }
      call.function.name += delta.function?.name ?? '';
      call.function.arguments += delta.function?.arguments ?? '';
      return { ...delta, id: call.id };
    });
    yield { type: 'step.delta', event: deltas ? { ...event, tool_calls: deltas } : event };
  }
  const toolCalls = [...calls.values()];
  return {
    message: {
      role: 'assistant',
      content: content || null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    finishReason,
    usage,
    route: answer.route,
  };
}

/**
 * The request's meter for a loop of model calls: each call's usage adds to the bill (the meter's own
 * `charge` keeps only the last call's), a stream's estimate applies only until its usage arrives, and
 * each call holds its estimate beside what the loop used so far (402 once the key or account has no room).
 */
function stepMeter(meter: UsageMeter): UsageMeter {
  return {
    charge(route, usage) {
      meter.addCharge(route, usage);
      meter.chargeEstimateIfAbandoned(route, new StreamUsageEstimate(0));
    },
    addCharge: (route, usage) => meter.addCharge(route, usage),
    chargeEstimateIfAbandoned: (route, estimate) => meter.chargeEstimateIfAbandoned(route, estimate),
    reserveTurn: (route, turn) => meter.reserveFurther(route, turn),
    reserveFurther: (route, turn) => meter.reserveFurther(route, turn),
    noteCache: (note) => meter.noteCache(note),
    keyGuardrails: meter.keyGuardrails,
  };
}
