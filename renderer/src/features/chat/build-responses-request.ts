import type { ChatMessage, ChatSettings } from './chat-types';
import type { McpApprovalResponse, McpCallInput, ResponsesInputMessage, ResponsesRequest } from './responses-types';

/** An approval a person gave or refused for one tool call. */
export interface ApprovalDecision {
  approvalRequestId: string;
  approve: boolean;
}

/** The calls an earlier answer made and what they returned, so the model knows them on the next turn. */
function finishedCalls(message: ChatMessage): McpCallInput[] {
  return (message.tools ?? []).flatMap((entry) =>
    entry.kind === 'call' && (entry.state === 'completed' || entry.state === 'failed')
      ? [
          {
            type: 'mcp_call' as const,
            id: entry.id,
            server_label: entry.server,
            name: entry.name,
            arguments: entry.arguments,
            output: entry.output ?? null,
            error: entry.error ?? null,
            status: entry.state,
          },
        ]
      : [],
  );
}

function toInput(message: ChatMessage): ResponsesInputMessage {
  if (message.images.length === 0) return { role: message.role, content: message.content };
  return {
    role: message.role,
    content: [
      ...(message.content ? [{ type: 'input_text' as const, text: message.content }] : []),
      ...message.images.map((url) => ({ type: 'input_image' as const, image_url: url, detail: 'auto' as const })),
    ],
  };
}

/** The fields every request of an MCP chat carries: the model, the system prompt, sampling and the servers as mcp tools. */
function commonFields(settings: ChatSettings): Omit<ResponsesRequest, 'input'> {
  const approval = settings.mcpApproval ?? 'server';
  return {
    model: settings.model,
    ...(settings.system.trim() ? { instructions: settings.system } : {}),
    tools: (settings.mcpServers ?? []).map((server) => ({
      type: 'mcp' as const,
      server_label: server,
      // Left out, each server's own marks decide: read-only tools run, the others ask first.
      ...(approval === 'server' ? {} : { require_approval: approval }),
    })),
    temperature: settings.temperature,
    top_p: settings.topP,
    ...(settings.maxTokens !== null ? { max_output_tokens: settings.maxTokens } : {}),
    ...(settings.responseFormat === 'json_object' ? { text: { format: { type: 'json_object' as const } } } : {}),
    stream: true,
  };
}

/**
 * The body the chat playground sends to POST /v1/responses when MCP servers are picked: the
 * conversation as input messages (failed answers left out, as in a chat request), each earlier answer
 * after the tool calls it made.
 */
export function buildResponsesRequest(settings: ChatSettings, messages: ChatMessage[]): ResponsesRequest {
  const input = messages
    .filter((m) => m.status !== 'error' || m.role === 'user')
    .flatMap((m) => [...finishedCalls(m), toInput(m)]);
  return { ...commonFields(settings), input };
}

/** After a person answered the approval requests of a stored response: its continuation. */
export function buildApprovalRequest(
  settings: ChatSettings,
  previousResponseId: string,
  decisions: ApprovalDecision[],
): ResponsesRequest {
  const input: McpApprovalResponse[] = decisions.map((d) => ({
    type: 'mcp_approval_response',
    approval_request_id: d.approvalRequestId,
    approve: d.approve,
  }));
  return { ...commonFields(settings), previous_response_id: previousResponseId, input };
}
