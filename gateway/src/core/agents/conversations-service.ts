import type { ChatChoice } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ToolDefinition } from '../../wire/tool-schemas.js';
import type { ConversationEntry, ConversationRecord, ConversationsRepository } from '../../store/conversations-repository.js';

export type { ConversationRecord };
import type { OwnerScope } from '../../store/owner-scope.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import { functionToolsOnly } from './agent-tools.js';
import type { AgentsService } from './agents-service.js';
import { chatMessagesOf, inputEntries, outputEntries, type ConversationInputs } from './conversation-entries.js';

/** One chat turn of a conversation, as the chat route runs it (routing, billing and logging are chat's). */
export interface ConversationChat {
  model: string;
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** Mistral's `completion_args` (temperature, max_tokens, ...), passed as chat parameters. */
  completionArgs: Record<string, unknown>;
}
export type RunConversationChat = (chat: ConversationChat) => Promise<{ model: string; choices: ChatChoice[]; usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } }>;

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

function agentVersion(given: number | string | null | undefined): number | undefined {
  if (given === undefined || given === null) return undefined;
  const version = typeof given === 'number' ? given : Number(given);
  if (!Number.isInteger(version) || version < 0) throw new GatewayError(422, 'invalid_value', 'Invalid request: agent_version is a version number (aliases are not supported here).', { param: 'agent_version' });
  return version;
}

/**
 * Mistral's conversations: a stored list of entries with a model (or an agent's configuration); each
 * start, append or restart runs one chat turn over the entries and stores what the model answered.
 */
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly agents: AgentsService,
    private readonly models: Pick<ModelRegistry, 'resolve'>,
    private readonly now: () => number = Date.now,
  ) {}

  async start(request: StartConversation, owner: OwnerScope, runChat: RunConversationChat): Promise<ConversationTurn> {
    const created = seconds(this.now());
    const base = { id: newId('conv_'), key_id: owner.keyId, name: request.name ?? null, description: request.description ?? null, metadata: request.metadata ?? null, entries: [], created_at: created, updated_at: created };
    let conversation: ConversationRecord;
    if (request.agent_id) {
      if (request.model) throw new GatewayError(422, 'invalid_value', "Invalid request: give either 'agent_id' or 'model', not both.", { param: 'model' });
      const agent = this.agents.atVersion(request.agent_id, agentVersion(request.agent_version), owner);
      conversation = { ...base, agent_id: agent.id, agent_version: agent.version, model: agent.model, instructions: agent.instructions, tools: agent.tools };
    } else {
      if (!request.model) throw new GatewayError(422, 'invalid_value', "Invalid request: give 'model' or 'agent_id'.", { param: 'model' });
      this.models.resolve(request.model, 'chat');
      conversation = { ...base, agent_id: null, agent_version: null, model: request.model, instructions: request.instructions ?? null, tools: functionToolsOnly(request.tools ?? []) };
    }
    const turn = await this.turn(conversation, conversation.entries, request, runChat);
    if (request.store !== false) this.conversations.insert({ ...conversation, entries: turn.entries });
    return turn.reply;
  }

  async append(id: string, request: TurnOptions, owner: OwnerScope, runChat: RunConversationChat): Promise<ConversationTurn> {
    const conversation = this.get(id, owner);
    const turn = await this.turn(conversation, conversation.entries, request, runChat);
    if (request.store !== false) this.conversations.setEntries(id, turn.entries, seconds(this.now()));
    return turn.reply;
  }

  /** A new conversation with the entries up to and including `fromEntryId`, then the new inputs' turn. */
  async restart(id: string, request: TurnOptions & { from_entry_id: string; metadata?: Record<string, unknown> | null }, owner: OwnerScope, runChat: RunConversationChat): Promise<ConversationTurn> {
    const original = this.get(id, owner);
    const at = original.entries.findIndex((entry) => entry.id === request.from_entry_id);
    if (at < 0) throw new GatewayError(404, 'entry_not_found', `Conversation "${id}" has no entry "${request.from_entry_id}".`, { param: 'from_entry_id' });
    const created = seconds(this.now());
    const conversation: ConversationRecord = { ...original, id: newId('conv_'), key_id: owner.keyId, metadata: request.metadata ?? original.metadata, created_at: created, updated_at: created };
    const turn = await this.turn(conversation, original.entries.slice(0, at + 1), request, runChat);
    if (request.store !== false) this.conversations.insert({ ...conversation, entries: turn.entries });
    return turn.reply;
  }

  get(id: string, owner: OwnerScope): ConversationRecord {
    const conversation = this.conversations.get(id, owner);
    if (!conversation) throw new GatewayError(404, 'conversation_not_found', `No conversation with id "${id}".`, { param: 'conversation_id' });
    return conversation;
  }

  list(page: number, pageSize: number, owner: OwnerScope): ConversationRecord[] {
    return this.conversations.list(pageSize, page * pageSize, owner);
  }

  delete(id: string, owner: OwnerScope): void {
    this.get(id, owner);
    this.conversations.delete(id);
  }

  private async turn(conversation: ConversationRecord, history: ConversationEntry[], request: TurnOptions, runChat: RunConversationChat) {
    const startedAt = this.now();
    const inputs = inputEntries(request.inputs, startedAt);
    const entries = [...history, ...inputs];
    const answer = await runChat({
      model: conversation.model,
      messages: chatMessagesOf(conversation.instructions, entries),
      tools: conversation.tools as ToolDefinition[],
      completionArgs: request.completion_args ?? {},
    });
    const outputs = outputEntries(answer.choices[0], answer.model, conversation.agent_id, startedAt, this.now());
    return { entries: [...entries, ...outputs], reply: { conversation_id: conversation.id, outputs, usage: answer.usage } };
  }
}
