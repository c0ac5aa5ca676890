import type { ToolActivity, ToolCall } from './chat-types';
import type { ResponseOutputItem, ResponseStreamEvent } from './responses-types';

type McpCallItem = Extract<ResponseOutputItem, { type: 'mcp_call' }>;
type CallFields = Pick<McpCallItem, 'id' | 'server_label' | 'name' | 'arguments' | 'approval_request_id'>;

/** A gateway may say how long a call took; otherwise it is timed from its start to its end event here. */
const reportedDuration = (item: McpCallItem): number | undefined => {
  const value = (item as McpCallItem & { duration_ms?: unknown }).duration_ms;
  return typeof value === 'number' ? value : undefined;
};

/**
 * Follows the MCP items of a Responses stream (mcp_list_tools, mcp_approval_request, mcp_call and
 * their response.mcp_call.* events) as the list of tool calls an answer shows, continuing from
 * what an earlier response of the same answer left (a call approved there is the same entry here).
 */
export class ToolActivityTracker {
  private items: ToolActivity[];
  private readonly startedAt = new Map<string, number>();

  constructor(
    initial: ToolActivity[] = [],
    private readonly now: () => number = () => performance.now(),
  ) {
    this.items = initial;
  }

  get activity(): ToolActivity[] {
    return this.items;
  }

  /** Applies one event; true when the list changed. */
  apply(event: ResponseStreamEvent): boolean {
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item.type !== 'mcp_call') return false;
        this.startedAt.set(event.item.id, this.now());
        // Its arguments start over here (usually empty): the delta events that follow fill them.
        return this.upsertCall(event.item, { state: 'calling', arguments: event.item.arguments });
      case 'response.mcp_call.in_progress':
        if (!this.startedAt.has(event.item_id)) this.startedAt.set(event.item_id, this.now());
        return false;
      case 'response.mcp_call_arguments.delta':
        return this.patch(event.item_id, (call) => ({ arguments: call.arguments + event.delta }));
      case 'response.mcp_call_arguments.done':
        return this.patch(event.item_id, () => ({ arguments: event.arguments }));
      case 'response.mcp_call.failed':
        return this.patch(event.item_id, (call) => (call.state === 'denied' ? {} : { state: 'failed' }));
      case 'response.output_item.done':
        return this.itemDone(event.item);
      default:
        return false;
    }
  }

  private itemDone(item: ResponseOutputItem): boolean {
    if (item.type === 'mcp_call') {
      const failed = item.status === 'failed' || item.status === 'incomplete' || !!item.error;
      const started = this.startedAt.get(item.id);
      // A call a person denied comes back as a failed call that never ran: it stays "denied".
      const denied = this.find(item).entry?.state === 'denied';
      return this.upsertCall(item, {
        state: denied ? 'denied' : failed ? 'failed' : 'completed',
        output: item.output ?? undefined,
        error: item.error ?? undefined,
        durationMs: reportedDuration(item) ?? (started !== undefined ? this.now() - started : undefined),
      });
    }
    if (item.type === 'mcp_approval_request') {
      return this.upsertCall(
        { id: item.id, server_label: item.server_label, name: item.name, arguments: item.arguments },
        { state: 'awaiting_approval', approvalRequestId: item.id },
      );
    }
    if (item.type === 'mcp_list_tools' && item.error) {
      this.items = [...this.items, { kind: 'list_failed', id: item.id, server: item.server_label, error: item.error }];
      return true;
    }
    return false;
  }

  /** The entry of a call: by its id, or by the approval request it answers. */
  private find(item: CallFields): { index: number; entry?: ToolCall } {
    const index = this.items.findIndex(
      (entry) =>
        entry.kind === 'call' &&
        (entry.id === item.id || (!!item.approval_request_id && entry.approvalRequestId === item.approval_request_id)),
    );
    return { index, entry: index >= 0 ? (this.items[index] as ToolCall) : undefined };
  }

  private upsertCall(item: CallFields, change: Partial<ToolCall>): boolean {
    const { index, entry } = this.find(item);
    const call: ToolCall = {
      ...(entry ?? { kind: 'call', state: 'calling' }),
      id: item.id,
      server: item.server_label,
      name: item.name,
      // An item without arguments keeps those already known (the approval request's).
      arguments: item.arguments || entry?.arguments || '',
      ...(item.approval_request_id ? { approvalRequestId: item.approval_request_id } : {}),
      ...change,
    };
    this.items = index >= 0 ? this.items.map((entry, i) => (i === index ? call : entry)) : [...this.items, call];
    return true;
  }

  private patch(id: string, change: (call: ToolCall) => Partial<ToolCall>): boolean {
    const index = this.items.findIndex((entry) => entry.kind === 'call' && entry.id === id);
    if (index < 0) return false;
    const call = this.items[index] as ToolCall;
    this.items = this.items.map((entry, i) => (i === index ? { ...call, ...change(call) } : entry));
    return true;
  }
}
