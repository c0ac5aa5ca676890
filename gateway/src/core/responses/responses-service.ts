import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponsesRepository, StoredResponseRecord } from '../../store/responses-repository.js';
import { batchedEvents } from '../../streaming/event-batches.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ChatService } from '../chat/chat-service.js';
import { chatAnswerToResponse, chatStreamToResponseEvents, responseSkeleton } from './chat-to-response.js';
import type { ResponseObjectType, ResponsesBodyType, StoredInputItemType } from '../../wire/responses-schemas.js';
import type { ClientSchemaSizeLimits } from '../json/check-client-schema-size.js';
import { checkTurnSchemas } from '../json/check-turn-schemas.js';
import { inputItemsOf, itemsToMessages, RESPONSES_SCHEMA_FIELDS, responsesTurn } from './responses-to-chat.js';
import { passThroughResponse } from './native-responses.js';
import { storeAfterStream, type ResponsesOutcome } from './responses-outcome.js';
import { createMcpResponse, usesMcpTools } from './mcp-responses.js';
import type { McpService } from '../mcp/mcp-service.js';

/** Who asks: stored responses belong to the key that created them; an Owner key sees all. */
export interface ResponsesCaller {
  keyId: string | null;
  owner: boolean;
}

export interface InputItemsPage {
  object: 'list';
  data: StoredInputItemType[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** A request's conversation: the response it continues, the items before its own, its input, and all of it as chat messages. */
interface ResponsesConversation {
  previous: StoredResponseRecord | undefined;
  context: StoredInputItemType[];
  input: StoredInputItemType[];
  messages: ChatMessage[];
}

/**
 * OpenAI's Responses API over the gateway's chat routes: a request's conversation becomes one chat
 * turn that the chat service runs (so checks, routing, fallbacks, usage and billing are chat's), or
 * is passed through to an upstream that speaks the Responses API itself. Responses are stored unless
 * `store: false`, so they can be retrieved and continued with `previous_response_id`.
 */
export class ResponsesService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly chat: ChatService,
    private readonly runner: RouteRunner,
    private readonly store: ResponsesRepository,
    private readonly schemaLimits: ClientSchemaSizeLimits,
    /** The MCP servers `mcp` tools name, and the tool loop's step limit. */
    private readonly toolLoop: { mcp: McpService; maxSteps: number },
  ) {}

  async create(
    body: ResponsesBodyType,
    caller: ResponsesCaller,
    signal: AbortSignal,
    meter: UsageMeter,
  ): Promise<ResponsesOutcome> {
    const route = this.models.resolveOrDefault(body.model, 'chat', DEFAULT_CHAT_MODEL);
    const conversation = await this.conversation(body, caller);
    // Before any path: passed through, another key's response or an upstream conversation would reach the upstream, which keeps every key's.
    this.checkPrevious(body, conversation);
    const turn = responsesTurn(body, conversation.messages);
    const keep = (response: Record<string, unknown>, native: boolean) =>
      this.keep(body, caller, conversation, response, native);

    if (usesMcpTools(body, conversation.input)) {
      return createMcpResponse(
        { chat: this.chat, ...this.toolLoop },
        {
          body,
          route,
          turn,
          context: conversation.context,
          input: conversation.input,
          caller: { id: caller.keyId ?? '', role: caller.owner ? 'owner' : 'member' },
          meter,
          signal,
          keep: (response) => keep(response, false),
        },
      );
    }
    // With guardrails (the route's or the key's) the request is translated to chat, where they run, rather than passed through.
    if (route.provider.capabilities.responses && !route.guardrails && !meter.keyGuardrails) {
      await meter.reserveTurn(route, turn);
      checkTurnSchemas(turn, this.schemaLimits, RESPONSES_SCHEMA_FIELDS);
      const estimate = StreamUsageEstimate.forChat(conversation.messages);
      return passThroughResponse(this.runner, route, { body, ...conversation, estimate }, meter, signal, (response) =>
        keep(response, true),
      );
    }
    const answer = await this.chat.complete(route, turn, body.stream === true, meter, signal, {
      fields: RESPONSES_SCHEMA_FIELDS,
    });
    const skeleton = responseSkeleton(body, answer.route.id);
    if (answer.kind === 'stream') {
      const finish = storeAfterStream((response) => keep(response, false));
      return { kind: 'stream', events: chatStreamToResponseEvents(batchedEvents(answer.batches), skeleton, finish) };
    }
    const response = chatAnswerToResponse(skeleton, answer.result.choices[0], answer.result.usage);
    await keep(response, false);
    return { kind: 'json', response };
  }

  /**
   * A request continues only a response the caller may read (stored by this gateway), never an
   * upstream's stored conversation, which every key's requests would reach through one provider account.
   */
  private checkPrevious(body: ResponsesBodyType, conversation: ResponsesConversation): void {
    if (body.conversation !== undefined && body.conversation !== null)
      throw new GatewayError(
        422,
        'unsupported_parameter',
        "Invalid request: 'conversation' (an upstream's stored conversation) is not served here; continue a conversation with previous_response_id.",
        { param: 'conversation' },
      );
    if (body.previous_response_id && !conversation.previous)
      throw new GatewayError(
        404,
        'response_not_found',
        `No stored response with id "${body.previous_response_id}" (responses created with store: false are not kept).`,
        { param: 'previous_response_id' },
      );
  }

  async get(id: string, caller: ResponsesCaller): Promise<ResponseObjectType> {
    return (await this.owned(id, caller)).response as unknown as ResponseObjectType;
  }

  async delete(id: string, caller: ResponsesCaller): Promise<{ id: string; object: 'response'; deleted: true }> {
    await this.owned(id, caller);
    await this.store.delete(id);
    return { id, object: 'response', deleted: true };
  }

  async inputItems(
    id: string,
    caller: ResponsesCaller,
    page: { limit?: number; after?: string; order?: 'asc' | 'desc' },
  ): Promise<InputItemsPage> {
    const items = (await this.owned(id, caller)).input_items as StoredInputItemType[];
    const ordered = page.order === 'asc' ? items : [...items].reverse();
    const start = page.after ? ordered.findIndex((item) => item.id === page.after) + 1 : 0;
    const limit = page.limit ?? 20;
    const data = ordered.slice(start, start + limit);
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: start + limit < ordered.length,
    };
  }

  /** The conversation a request continues (a previous response only when the caller may read it) and its own input. */
  private async conversation(body: ResponsesBodyType, caller: ResponsesCaller): Promise<ResponsesConversation> {
    const stored = body.previous_response_id ? await this.store.get(body.previous_response_id) : undefined;
    const previous = stored && this.mayRead(stored, caller) ? stored : undefined;
    const input = inputItemsOf(body.input);
    if (input.length === 0 && !body.previous_response_id)
      throw new GatewayError(
        422,
        'invalid_value',
        "Invalid request: 'input' is required (a string or a list of items).",
        { param: 'input' },
      );
    const context = previous ? conversationOf(previous) : [];
    const known = new Map([...context, ...input].map((item) => [item.id, item]));
    const referenced = await this.storedItems(input, known, caller);
    const messages: ChatMessage[] = [
      ...(body.instructions ? [{ role: 'system' as const, content: body.instructions }] : []),
      ...itemsToMessages([...context, ...input], (id) => known.get(id) ?? referenced.get(id)),
    ];
    return { previous, context, input, messages };
  }

  /** Stores a response unless the request said `store: false`; a translated one keeps the conversation before it. */
  private async keep(
    body: ResponsesBodyType,
    caller: ResponsesCaller,
    conversation: ResponsesConversation,
    response: Record<string, unknown>,
    native: boolean,
  ): Promise<void> {
    if (body.store === false || typeof response.id !== 'string') return;
    await this.store.insert({
      id: response.id,
      created_at: Math.floor(Date.now() / 1000),
      key_id: caller.keyId,
      native,
      response,
      input_items: conversation.input,
      context_items: native ? [] : conversation.context,
    });
  }

  /** The stored items the input refers to (`item_reference`) and does not carry itself, that the caller may read. */
  private async storedItems(
    items: readonly StoredInputItemType[],
    known: ReadonlyMap<unknown, StoredInputItemType>,
    caller: ResponsesCaller,
  ): Promise<Map<string, StoredInputItemType>> {
    const wanted = items
      .filter((item) => item.type === 'item_reference' && typeof item.id === 'string' && !known.has(item.id))
      .map((item) => item.id as string);
    const found = new Map<string, StoredInputItemType>();
    for (const id of new Set(wanted)) {
      const stored = await this.store.item(id);
      if (stored && (caller.owner || stored.key_id === caller.keyId)) found.set(id, stored.item as StoredInputItemType);
    }
    return found;
  }

  // Stored with the row's key; an Owner key reads every key's responses.
  private mayRead(record: StoredResponseRecord, caller: ResponsesCaller): boolean {
    return caller.owner || record.key_id === caller.keyId;
  }

  private async owned(id: string, caller: ResponsesCaller): Promise<StoredResponseRecord> {
    const record = await this.store.get(id);
    if (!record || !this.mayRead(record, caller)) {
      throw new GatewayError(
        404,
        'response_not_found',
        `No stored response with id "${id}" (responses created with store: false are not kept).`,
        { param: 'response_id' },
      );
    }
    return record;
  }
}

/** The items a stored response leaves for the next turn: what came before it, its input, its output. */
function conversationOf(record: StoredResponseRecord): StoredInputItemType[] {
  const output = Array.isArray(record.response.output) ? (record.response.output as StoredInputItemType[]) : [];
  return [
    ...(record.context_items as StoredInputItemType[]),
    ...(record.input_items as StoredInputItemType[]),
    ...output,
  ];
}
