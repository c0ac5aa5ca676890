import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { ToolDefinition } from '../../wire/tool-schemas.js';
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
import { functionToolsOnly } from './agent-tools.js';
import type { AgentsService } from './agents-service.js';
import { conversationEvents, conversationUsage, type ConversationStreamEvent } from './conversation-stream.js';
import { chatMessagesOf, inputEntries, outputEntries, type ConversationInputs } from './conversation-entries.js';
import { completionArgsTurn } from './completion-args-turn.js';
import { batchedEvents } from '../../streaming/event-batches.js';

export interface TurnOptions {
  inputs: ConversationInputs;
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
      tools: functionToolsOnly(request.tools ?? []),
    };
    return this.pending(conversation, [], request, (entries) =>
      this.conversations.insert({ ...conversation, entries }),
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
    agentArgs: Record<string, unknown> = {},
  ): PendingTurn {
    const startedAt = this.now();
    const entries = [...history, ...inputEntries(request.inputs, startedAt)];
    if (request.store !== false) this.quotas.checkConversationSize(entries);
    return new PendingTurn(
      conversation,
      entries,
      { ...agentArgs, ...request.completion_args },
      startedAt,
      request.store === false ? async () => undefined : keep,
      { chat: this.chat, models: this.models, now: this.now },
    );
  }
}

/**
 * One conversation turn, validated and ready: run it for the whole answer, or stream it as Mistral's
 * conversation events. Either way the chat service runs it on the conversation's model (routing,
 * billing and checks are chat's) and the entries are kept (unless the client sent `store: false`)
 * once the answer is complete.
 */
export class PendingTurn {
  constructor(
    private readonly conversation: ConversationRecord,
    private readonly entries: ConversationEntry[],
    private readonly completionArgs: Record<string, unknown>,
    private readonly startedAt: number,
    private readonly keep: (entries: ConversationEntry[]) => Promise<void>,
    private readonly services: { chat: ChatService; models: Pick<ModelRegistry, 'resolve'>; now: () => number },
  ) {}

  async run(meter: UsageMeter, signal: AbortSignal): Promise<ConversationTurn> {
    const answer = await this.services.chat.complete(this.route(), this.turn(), false, meter, signal);
    if (answer.kind !== 'json') throw new Error('a whole chat turn came back streamed');
    const outputs = outputEntries(
      answer.result.choices[0],
      answer.route.id,
      this.conversation.agent_id,
      this.startedAt,
      this.services.now(),
    );
    await this.keep([...this.entries, ...outputs]);
    return { conversation_id: this.conversation.id, outputs, usage: conversationUsage(answer.result.usage) };
  }

  /** Connects to the model first (so a refused request is still a plain HTTP error), then yields the turn's events. */
  async stream(meter: UsageMeter, signal: AbortSignal): Promise<AsyncGenerator<ConversationStreamEvent>> {
    const answer = await this.services.chat.complete(this.route(), this.turn(), true, meter, signal);
    if (answer.kind !== 'stream') throw new Error('a streamed chat turn came back whole');
    return this.streamed(batchedEvents(answer.batches));
  }

  private async *streamed(chat: AsyncIterable<ChatStreamEvent>): AsyncGenerator<ConversationStreamEvent> {
    const { conversation } = this;
    const outputs = yield* conversationEvents(chat, {
      conversationId: conversation.id,
      model: conversation.model,
      agentId: conversation.agent_id,
      startedAt: this.startedAt,
      now: this.services.now,
    });
    await this.keep([...this.entries, ...outputs]);
  }

  private route() {
    return this.services.models.resolve(this.conversation.model, 'chat');
  }

  private turn(): ChatTurn {
    const { conversation } = this;
    return completionArgsTurn(
      chatMessagesOf(conversation.instructions, this.entries),
      conversation.tools as ToolDefinition[],
      this.completionArgs,
    );
  }
}
