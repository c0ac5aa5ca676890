import type {
  ConversationEntry,
  ConversationRecord,
  ConversationsRepository,
} from '../../store/conversations-repository.js';

export type { ConversationRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ChatService, ChatTurn } from '../chat/chat-service.js';
import type { StorageQuotas } from '../account/storage-quotas.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { agentTools, connectorServers, functionTools } from './agent-tools.js';
import type { AgentsService } from './agents-service.js';
import {
  ConversationOutputWriter,
  conversationUsage,
  type ConversationStreamEvent,
} from './conversation-output-writer.js';
import { chatMessagesOf, inputEntries, type ConversationInputs } from './conversation-entries.js';
import { completionArgsTurn } from './completion-args-turn.js';
import type { McpCaller, McpService } from '../mcp/mcp-service.js';
import { openMcpToolset } from '../mcp/mcp-toolset.js';
import {
  runToolLoop,
  type ApprovedCall,
  type LoopTool,
  type ToolLoopEnd,
  type ToolLoopEvent,
} from '../mcp/tool-loop.js';

/** The MCP servers connector tools name, and the tool loop's step limit. */
export interface ConversationToolLoop {
  mcp: McpService;
  maxSteps: number;
}

export interface TurnOptions {
  /** Absent only on an append that answers `tool_confirmations`. */
  inputs?: ConversationInputs;
  tool_confirmations?: ToolConfirmation[] | null;
  /** false: the turn is answered but not kept. */
  store?: boolean | null;
  completion_args?: Record<string, unknown> | null;
}

export interface StartConversation extends TurnOptions {
  model?: string | null;
  agent_id?: string | null;
  agent_version?: number | string | null;
  instructions?: string | null;
  tools?: { type: string }[] | null;
  name?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown> | null;
}

export interface ConversationTurn {
  conversation_id: string;
  outputs: ConversationEntry[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Mistral's conversations: a stored list of entries with a model (or an agent's configuration); each
 * start, append or restart runs one chat turn over the entries and stores what the model answered.
 */
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly agents: AgentsService,
    private readonly models: Pick<ModelRegistry, 'resolve'>,
    private readonly quotas: Pick<StorageQuotas, 'checkNewConversation' | 'checkConversationSize'>,
    private readonly chat: ChatService,
    private readonly toolLoop: ConversationToolLoop,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new conversation with a model or an agent; its first turn runs when the returned turn is run or streamed. */
  async start(request: StartConversation, owner: OwnerScope): Promise<PendingTurn> {
    if (request.store !== false) await this.quotas.checkNewConversation(owner.keyId);
    const created = seconds(this.now());
    const base = {
      id: newOrderedId('conv_'),
      key_id: owner.keyId,
      name: request.name ?? null,
      description: request.description ?? null,
      metadata: request.metadata ?? null,
      entries: [],
      created_at: created,
      updated_at: created,
    };
    let conversation: ConversationRecord;
    if (request.agent_id) {
      if (request.model)
        throw new GatewayError(422, 'invalid_value', "Invalid request: give either 'agent_id' or 'model', not both.", {
          param: 'model',
        });
      const agent = await this.agents.atVersion(request.agent_id, request.agent_version, owner);
      conversation = {
        ...base,
        agent_id: agent.id,
        agent_version: agent.version,
        model: agent.model,
        instructions: agent.instructions,
        tools: agent.tools,
      };
      return this.pending(
        conversation,
        [],
        request,
        (entries) => this.conversations.insert({ ...conversation, entries }),
        owner,
        agent.completion_args,
      );
    }
    if (!request.model)
      throw new GatewayError(422, 'invalid_value', "Invalid request: give 'model' or 'agent_id'.", { param: 'model' });
    this.models.resolve(request.model, 'chat');
    conversation = {
      ...base,
      agent_id: null,
      agent_version: null,
      model: request.model,
      instructions: request.instructions ?? null,
      tools: agentTools(request.tools ?? []),
    };
    return this.pending(
      conversation,
      [],
      request,
      (entries) => this.conversations.insert({ ...conversation, entries }),
      owner,
    );
  }

  /** The next turn of a stored conversation. */
  async append(id: string, request: TurnOptions, owner: OwnerScope): Promise<PendingTurn> {
    const conversation = await this.get(id, owner);
    return this.pending(
      conversation,
      conversation.entries,
      request,
      (entries) => this.conversations.setEntries(id, entries, seconds(this.now())),
      owner,
      await this.agentArgs(conversation, owner),
    );
  }

  /** A new conversation with the entries up to and including `fromEntryId`, then the new inputs' turn. */
  async restart(
    id: string,
    request: TurnOptions & { from_entry_id: string; metadata?: Record<string, unknown> | null },
    owner: OwnerScope,
  ): Promise<PendingTurn> {
    const original = await this.get(id, owner);
    const at = original.entries.findIndex((entry) => entry.id === request.from_entry_id);
    if (at < 0)
      throw new GatewayError(404, 'entry_not_found', `Conversation "${id}" has no entry "${request.from_entry_id}".`, {
        param: 'from_entry_id',
      });
    if (request.store !== false) await this.quotas.checkNewConversation(owner.keyId);
    const created = seconds(this.now());
    const conversation: ConversationRecord = {
      ...original,
      id: newOrderedId('conv_'),
      key_id: owner.keyId,
      metadata: request.metadata ?? original.metadata,
      created_at: created,
      updated_at: created,
    };
    return this.pending(
      conversation,
      original.entries.slice(0, at + 1),
      request,
      (entries) => this.conversations.insert({ ...conversation, entries }),
      owner,
      await this.agentArgs(original, owner),
    );
  }

  async get(id: string, owner: OwnerScope): Promise<ConversationRecord> {
    const conversation = await this.conversations.get(id, owner);
    if (!conversation)
      throw new GatewayError(404, 'conversation_not_found', `No conversation with id "${id}".`, {
        param: 'conversation_id',
      });
    return conversation;
  }

  list(page: number, pageSize: number, owner: OwnerScope): Promise<ConversationRecord[]> {
    return this.conversations.list(pageSize, page * pageSize, owner);
  }

  async delete(id: string, owner: OwnerScope): Promise<void> {
    await this.get(id, owner);
    await this.conversations.delete(id);
  }

  /** The completion_args of the agent version a conversation runs (none once that agent is deleted: the conversation keeps its model). */
  private async agentArgs(conversation: ConversationRecord, owner: OwnerScope): Promise<Record<string, unknown>> {
    if (!conversation.agent_id) return {};
    try {
      return (await this.agents.atVersion(conversation.agent_id, conversation.agent_version, owner)).completion_args;
    } catch (error) {
      if (error instanceof GatewayError && error.status === 404) return {};
      throw error;
    }
  }

  /** A turn's own completion_args override the agent's, field by field. */
  private pending(
    conversation: ConversationRecord,
    history: ConversationEntry[],
    request: TurnOptions,
    keep: (entries: ConversationEntry[]) => Promise<void>,
    owner: OwnerScope,
    agentArgs: Record<string, unknown> = {},
  ): PendingTurn {
    const startedAt = this.now();
    const confirmations = request.tool_confirmations ?? [];
    // An append may only answer confirmations; otherwise a turn needs inputs.
    const inputs =
      request.inputs === undefined && confirmations.length > 0 ? [] : inputEntries(request.inputs ?? [], startedAt);
    const entries = [...history, ...inputs];
    if (request.store !== false) this.quotas.checkConversationSize(entries);
    return new PendingTurn(
      conversation,
      entries,
      { ...agentArgs, ...request.completion_args },
      startedAt,
      request.store === false ? async () => undefined : keep,
      { chat: this.chat, models: this.models, now: this.now, toolLoop: this.toolLoop },
      { id: owner.keyId ?? '', role: owner.seesAll ? 'owner' : 'member' },
      confirmations,
    );
  }
}

/** Mistral's answer to an MCP call that waited: run it (`allow`) or tell the model it was refused (`deny`). */
export interface ToolConfirmation {
  tool_call_id: string;
  confirmation: 'allow' | 'deny';
}

interface TurnServices {
  chat: ChatService;
  models: Pick<ModelRegistry, 'resolve'>;
  now: () => number;
  toolLoop: ConversationToolLoop;
}

/**
 * One conversation turn, validated and ready: run it for the whole answer, or stream it as Mistral's
 * conversation events. The turn runs the tool loop (runToolLoop) on the conversation's model through
 * the chat service (routing, billing and checks are chat's): the MCP servers its connector tools name
 * are called by the gateway (each call a `tool.execution` entry) until the model answers, calls a
 * function tool the client runs, or calls a tool that waits for confirmation (a `function.call` entry
 * with `confirmation_status: "pending"`, answered by the next append's `tool_confirmations`). The
 * entries are kept (unless the client sent `store: false`) once the turn is complete.
 */
export class PendingTurn {
  constructor(
    private readonly conversation: ConversationRecord,
    private readonly entries: ConversationEntry[],
    private readonly completionArgs: Record<string, unknown>,
    private readonly startedAt: number,
    private readonly keep: (entries: ConversationEntry[]) => Promise<void>,
    private readonly services: TurnServices,
    private readonly caller: McpCaller,
    private readonly confirmations: readonly ToolConfirmation[],
  ) {}

  async run(meter: UsageMeter, signal: AbortSignal): Promise<ConversationTurn> {
    const events = await this.begin(false, meter, signal);
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value;
    }
  }

  /** Connects to the model first (so a refused request is still a plain HTTP error), then yields the turn's events. */
  async stream(meter: UsageMeter, signal: AbortSignal): Promise<AsyncGenerator<ConversationStreamEvent>> {
    return this.begin(true, meter, signal);
  }

  private async begin(
    stream: boolean,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<AsyncGenerator<ConversationStreamEvent, ConversationTurn>> {
    const { conversation, services } = this;
    const servers = connectorServers(conversation.tools);
    const toolset = servers.length > 0 ? await openMcpToolset(services.toolLoop.mcp, servers, this.caller) : undefined;
    try {
      const tools = toolset?.tools ?? [];
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const resumed = this.confirmed(byName);
      const route = this.route();
      const writer = new ConversationOutputWriter(
        {
          conversationId: conversation.id,
          model: stream ? conversation.model : route.id,
          agentId: conversation.agent_id,
          startedAt: this.startedAt,
          now: services.now,
        },
        (name) => byName.get(name),
      );
      const loop = runToolLoop({
        chat: services.chat,
        route,
        turn: this.turn(),
        tools,
        stream,
        maxSteps: services.toolLoop.maxSteps,
        meter,
        signal,
        resumed,
      });
      const first = await loop.next();
      return this.events(first, loop, writer, stream, async () => toolset?.close());
    } catch (error) {
      await toolset?.close();
      throw error;
    }
  }

  private async *events(
    first: IteratorResult<ToolLoopEvent, ToolLoopEnd>,
    loop: AsyncGenerator<ToolLoopEvent, ToolLoopEnd>,
    writer: ConversationOutputWriter,
    stream: boolean,
    close: () => Promise<void>,
  ): AsyncGenerator<ConversationStreamEvent, ConversationTurn> {
    try {
      yield writer.started();
      let next = first;
      while (!next.done) {
        const event = next.value;
        if (event.type === 'step.delta') yield* writer.delta(event.event);
        else if (event.type === 'step.done') {
          if (stream) yield* writer.endStep();
          else writer.wholeStep(event.message);
        } else if (event.type === 'call.started') yield* writer.toolStarted(event.call);
        else yield* writer.toolDone(event.call, event.result);
        next = await loop.next();
      }
      const end = next.value;
      if (end.reason === 'step_limit')
        for (const call of end.pending)
          yield* writer.notRun(
            call,
            'Not run: the tool loop reached its step limit (server.tool_loop_max_steps); the turn ended here.',
          );
      const { event, outputs } = writer.done(end.usage);
      await this.keep([...this.entries, ...outputs]);
      yield event;
      return { conversation_id: this.conversation.id, outputs, usage: conversationUsage(end.usage) };
    } finally {
      await loop.return(undefined as never).catch(() => undefined);
      await close();
    }
  }

  /** The calls `tool_confirmations` answer, their pending entries marked allowed or denied. */
  private confirmed(tools: ReadonlyMap<string, LoopTool>): ApprovedCall[] {
    return this.confirmations.map(({ tool_call_id: id, confirmation }, index) => {
      const param = `tool_confirmations[${index}].tool_call_id`;
      const entry = this.entries.find(
        (candidate) =>
          candidate.type === 'function.call' &&
          candidate.tool_call_id === id &&
          candidate.confirmation_status === 'pending',
      );
      if (!entry)
        throw new GatewayError(
          422,
          'invalid_value',
          `Invalid request: no function.call waiting for confirmation has tool_call_id "${id}".`,
          { param },
        );
      const tool = tools.get(String(entry.name));
      if (!tool)
        throw new GatewayError(
          422,
          'invalid_value',
          `Invalid request: the conversation's tools no longer offer "${String(entry.name)}".`,
          { param },
        );
      entry.confirmation_status = confirmation === 'allow' ? 'allowed' : 'denied';
      return {
        call: { id, name: tool.name, arguments: String(entry.arguments), tool },
        approved: confirmation === 'allow',
      };
    });
  }

  private route() {
    return this.services.models.resolve(this.conversation.model, 'chat');
  }

  private turn(): ChatTurn {
    const { conversation } = this;
    return completionArgsTurn(
      chatMessagesOf(conversation.instructions, this.entries),
      functionTools(conversation.tools),
      this.completionArgs,
    );
  }
}
