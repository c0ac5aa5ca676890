import type { McpTool } from '../../wire/mcp-server-schemas.js';
import type {
  ResponseObjectType,
  ResponsesBodyType,
  ResponsesToolType,
  StoredInputItemType,
} from '../../wire/responses-schemas.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService, ChatTurn } from '../chat/chat-service.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { McpCaller, McpService } from '../mcp/mcp-service.js';
import { openMcpToolset, type McpServerChoice } from '../mcp/mcp-toolset.js';
import {
  runToolLoop,
  type ApprovedCall,
  type LoopTool,
  type ToolLoopEnd,
  type ToolLoopEvent,
} from '../mcp/tool-loop.js';
import type { ModelRoute } from '../routing/model-registry.js';
import { responseSkeleton } from './chat-to-response.js';
import { ResponseOutputWriter } from './response-output-writer.js';
import { storeAfterStream, type ResponseStreamEvent, type ResponsesOutcome } from './responses-outcome.js';

const invalid = (param: string, message: string): GatewayError =>
  new GatewayError(422, 'invalid_value', message, { param });

type ToolFilter = { tool_names?: string[]; read_only?: boolean };

/** A filter matches a tool when every criterion it gives holds (and it gives one). */
function matches(filter: ToolFilter | undefined, tool: McpTool): boolean {
  if (!filter || (filter.tool_names === undefined && filter.read_only === undefined)) return false;
  return (
    (filter.tool_names === undefined || filter.tool_names.includes(tool.name)) &&
    (filter.read_only === undefined || filter.read_only === tool.read_only)
  );
}

/**
 * The request's `mcp` tools as the servers its tool loop offers: `allowed_tools` picks tools (names,
 * or a filter), `require_approval` says which calls wait for approval (`always`, `never`, or filters;
 * absent, or a tool no filter names: the server's own rule, i.e. every tool not annotated read-only).
 */
export function mcpServerChoices(tools: ResponsesBodyType['tools']): McpServerChoice[] {
  const labels = new Set<string>();
  return (tools ?? []).flatMap((tool: ResponsesToolType, index): McpServerChoice[] => {
    if (tool.type !== 'mcp') return [];
    const label = tool.server_label;
    if (!label) throw invalid(`tools[${index}].server_label`, 'An mcp tool needs a server_label.');
    if (labels.has(label))
      throw invalid(`tools[${index}].server_label`, `Two mcp tools have the server_label "${label}".`);
    labels.add(label);
    if (tool.connector_id !== undefined)
      throw invalid(
        `tools[${index}].connector_id`,
        'Connectors are not available on this gateway: give a configured server id as server_label, or a server_url.',
      );
    const allowed = tool.allowed_tools;
    const approval = tool.require_approval;
    return [
      {
        label,
        ...(tool.server_url ? { url: tool.server_url } : {}),
        ...(tool.headers ? { headers: tool.headers } : {}),
        allows: (candidate) =>
          allowed === undefined || allowed === null
            ? true
            : Array.isArray(allowed)
              ? allowed.includes(candidate.name)
              : matches(allowed, candidate),
        needsApproval: (candidate) => {
          if (approval === 'always' || approval === 'never') return approval === 'always';
          if (matches(approval?.always, candidate)) return true;
          if (matches(approval?.never, candidate)) return false;
          return candidate.require_approval === 'always';
        },
      },
    ];
  });
}

/** Whether a request runs the MCP tool loop: it offers `mcp` tools (an approval answer without them is a 422). */
export function usesMcpTools(body: ResponsesBodyType, input: readonly StoredInputItemType[]): boolean {
  const offered = (body.tools ?? []).some((tool) => tool.type === 'mcp');
  if (!offered && input.some((item) => item.type === 'mcp_approval_response'))
    throw invalid('tools', 'An mcp_approval_response needs the mcp tool of its server in `tools` again.');
  return offered;
}

export interface McpResponseRequest {
  body: ResponsesBodyType;
  route: ModelRoute;
  /** The request's chat turn: the conversation's messages and its function tools. */
  turn: ChatTurn;
  /** The items before this request's own (a previous response's), and its input. */
  context: StoredInputItemType[];
  input: StoredInputItemType[];
  caller: McpCaller;
  meter: UsageMeter;
  signal: AbortSignal;
  /** Stores the finished response (unless `store: false`); a stream's is stored after its last event. */
  keep(response: Record<string, unknown>): Promise<void>;
}

export interface McpResponseServices {
  chat: ChatService;
  mcp: McpService;
  maxSteps: number;
}

/**
 * A Responses request with `mcp` tools: the servers' tools are offered to the model and the gateway
 * runs the calls (runToolLoop) until the model answers. The output lists each server's tools
 * (`mcp_list_tools`, once per conversation), every call (`mcp_call`), and ends with
 * `mcp_approval_request` items when a call waits for approval: the next request answers them with
 * `mcp_approval_response` items and `previous_response_id`. The model's calls past `max_tool_calls`
 * are not run (their items say so), and the last step the step limit allows is offered no MCP tool.
 */
export async function createMcpResponse(
  services: McpResponseServices,
  request: McpResponseRequest,
): Promise<ResponsesOutcome> {
  const { body } = request;
  const toolset = await openMcpToolset(services.mcp, mcpServerChoices(body.tools), request.caller);
  try {
    const byName = new Map(toolset.tools.map((tool) => [tool.name, tool]));
    const resumed = approvedCalls(request.context, request.input, toolset.tools);
    const listedBefore = new Set(
      request.context.filter((item) => item.type === 'mcp_list_tools').map((item) => item.server_label),
    );
    const writer = new ResponseOutputWriter(responseSkeleton(body, request.route.id), (name) => byName.get(name));
    const stream = body.stream === true;
    const loop = runToolLoop({
      chat: services.chat,
      route: request.route,
      turn: request.turn,
      tools: toolset.tools,
      stream,
      maxSteps: services.maxSteps,
      maxCalls: body.max_tool_calls ?? undefined,
      meter: request.meter,
      signal: request.signal,
      resumed,
    });
    // The first model call (or resumed tool call) runs before the answer starts: a refused request is a plain HTTP error.
    const first = await loop.next();
    const events = responseEvents(first, loop, writer, {
      stream,
      resumedIds: new Set(resumed.filter(({ approved }) => approved).map(({ call }) => call.id)),
      newLists: toolset.servers.filter((server) => !listedBefore.has(server.label)),
      keep: stream ? async (response) => storeAfterStream(request.keep)(response) : request.keep,
      close: () => toolset.close(),
    });
    if (stream) return { kind: 'stream', events };
    let last: ResponseStreamEvent | undefined;
    for await (const event of events) last = event;
    return { kind: 'json', response: last!.response as ResponseObjectType };
  } catch (error) {
    await toolset.close();
    throw error;
  }
}

/** The calls the request's `mcp_approval_response` items answer, from the approval requests before it. */
function approvedCalls(
  context: readonly StoredInputItemType[],
  input: readonly StoredInputItemType[],
  tools: readonly LoopTool[],
): ApprovedCall[] {
  const requests = new Map(
    context.filter((item) => item.type === 'mcp_approval_request').map((item) => [item.id, item]),
  );
  return input.flatMap((item, index): ApprovedCall[] => {
    if (item.type !== 'mcp_approval_response') return [];
    const request = item.approval_request_id ? requests.get(item.approval_request_id) : undefined;
    if (!request)
      throw invalid(
        `input[${index}].approval_request_id`,
        `No mcp_approval_request "${item.approval_request_id}" in the previous response; send previous_response_id with the response that asked.`,
      );
    const tool = tools.find(
      (candidate) => candidate.server === request.server_label && candidate.tool.name === request.name,
    );
    if (!tool)
      throw invalid(
        `input[${index}].approval_request_id`,
        `The approved call is of "${request.name}" on "${request.server_label}", which this request's mcp tools do not offer; send the same mcp tool again.`,
      );
    return [
      {
        call: { id: request.id, name: tool.name, arguments: request.arguments ?? '{}', tool },
        approved: item.approve === true,
        reason: typeof item.reason === 'string' ? item.reason : null,
      },
    ];
  });
}

interface EventOptions {
  stream: boolean;
  resumedIds: Set<string>;
  newLists: { label: string; tools: McpTool[] }[];
  keep(response: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

async function* responseEvents(
  first: IteratorResult<ToolLoopEvent, ToolLoopEnd>,
  loop: AsyncGenerator<ToolLoopEvent, ToolLoopEnd>,
  writer: ResponseOutputWriter,
  options: EventOptions,
): AsyncGenerator<ResponseStreamEvent> {
  try {
    yield* writer.start();
    for (const server of options.newLists) yield* writer.listTools(server.label, server.tools);
    let next = first;
    while (!next.done) {
      const event = next.value;
      switch (event.type) {
        case 'step.delta':
          yield* writer.delta(event.event);
          break;
        case 'step.done':
          if (options.stream) yield* writer.endStep();
          else writer.wholeStep(event.message);
          break;
        case 'call.started':
          if (options.resumedIds.has(event.call.id)) yield* writer.resumedCall(event.call);
          yield* writer.callStarted(event.call);
          break;
        case 'call.done':
          yield* writer.callDone(event.call, event.result);
          break;
      }
      next = await loop.next();
    }
    const end = next.value;
    if (end.reason === 'step_limit')
      for (const call of end.pending)
        yield* writer.notRun(call, 'Not run: the tool loop reached its step limit (server.tool_loop_max_steps).');
    const response = {
      ...writer.finish(end.finishReason, end.usage, end.reason === 'step_limit' ? 'max_tool_calls' : undefined),
      model: end.route.id,
    };
    await options.keep(response as unknown as Record<string, unknown>);
    yield writer.finished(response);
  } finally {
    await loop.return(undefined as never).catch(() => undefined);
    await options.close();
  }
}
