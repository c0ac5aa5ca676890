import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import type { ChatRequest, ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponsesUpstreamEvent } from '../../providers/contracts/responses.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ResponsesRepository, StoredResponseRecord } from '../../store/responses-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import { providerFor, type RouteRunner } from '../routing/route-runner.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import {
  chatStreamToResponseEvents,
  choiceToOutput,
  finishResponse,
  responseSkeleton,
  type ResponseStreamEvent,
} from './chat-to-response.js';
import type { ResponseObjectType, ResponsesBodyType, StoredInputItemType } from '../../wire/responses-schemas.js';
import type { ClientSchemaSizeLimits } from '../json/check-client-schema-size.js';
import { checkTurnSchemas } from '../json/check-turn-schemas.js';
import { inputItemsOf, itemsToMessages, toChatToolChoice, toChatTools, toResponseFormat } from './responses-to-chat.js';

/** Who asks: stored responses belong to the key that created them; an Owner key sees all. */
export interface ResponsesCaller {
  keyId: string | null;
  owner: boolean;
}

export type ResponsesOutcome =
  { kind: 'json'; response: ResponseObjectType } | { kind: 'stream'; events: AsyncIterable<ResponseStreamEvent> };

export interface InputItemsPage {
  object: 'list';
  data: StoredInputItemType[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

type Served =
  | { mode: 'chat'; result: ChatResult }
  | { mode: 'chat-stream'; events: AsyncIterable<ChatStreamEvent> }
  | { mode: 'native'; result: Record<string, unknown> }
  | { mode: 'native-stream'; events: AsyncIterable<ResponsesUpstreamEvent> };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAI's Responses API over the gateway's chat routes: a request is translated to a chat turn (so
 * routing, fallbacks, usage and billing are chat's), or passed through to an upstream that speaks
 * the Responses API itself. Responses are stored unless `store: false`, so they can be retrieved
 * and continued with `previous_response_id`.
 */
export class ResponsesService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly store: ResponsesRepository,
    private readonly schemaLimits: ClientSchemaSizeLimits,
  ) {}

  async create(
    body: ResponsesBodyType,
    caller: ResponsesCaller,
    signal: AbortSignal,
    meter: UsageMeter,
  ): Promise<ResponsesOutcome> {
    const route = this.models.resolveOrDefault(body.model, 'chat', DEFAULT_CHAT_MODEL);
    const previous = body.previous_response_id ? await this.store.get(body.previous_response_id) : undefined;
    const previousVisible = previous && this.mayRead(previous, caller) ? previous : undefined;
    const inputItems = inputItemsOf(body.input);
    if (inputItems.length === 0 && !body.previous_response_id)
      throw new GatewayError(
        422,
        'invalid_value',
        "Invalid request: 'input' is required (a string or a list of items).",
        { param: 'input' },
      );
    const context = previousVisible ? conversationOf(previousVisible) : [];
    const known = new Map([...context, ...inputItems].map((item) => [item.id, item]));
    const stored = await this.storedItems(inputItems, known, caller);
    const messages: ChatMessage[] = [
      ...(body.instructions ? [{ role: 'system' as const, content: body.instructions }] : []),
      ...itemsToMessages([...context, ...inputItems], (id) => known.get(id) ?? stored.get(id)),
    ];
    const chatRequest: Omit<ChatRequest, 'model'> = {
      messages,
      max_tokens: body.max_output_tokens ?? undefined,
      temperature: body.temperature ?? undefined,
      top_p: body.top_p ?? undefined,
      tools: toChatTools(body.tools),
      tool_choice: toChatToolChoice(body.tool_choice),
      parallel_tool_calls: body.parallel_tool_calls ?? undefined,
      response_format: toResponseFormat(body.text?.format),
      signal,
    };
    checkTurnSchemas(chatRequest, this.schemaLimits, { format: 'text.format', tools: 'tools' });
    const missingPrevious = (): GatewayError =>
      new GatewayError(
        404,
        'response_not_found',
        `No stored response with id "${body.previous_response_id}" (responses created with store: false are not kept).`,
        { param: 'previous_response_id' },
      );

    const { value: served, route: servedRoute } = await this.runner.run(
      route,
      'chat',
      signal,
      async (candidate): Promise<Served> => {
        const native = candidate.provider.capabilities.responses;
        if (native) {
          const nativeBody = nativeRequest(body, candidate.upstreamModel, previousVisible, inputItems);
          return body.stream
            ? { mode: 'native-stream', events: await native.createStream(nativeBody, signal) }
            : { mode: 'native', result: await native.create(nativeBody, signal) };
        }
        if (body.previous_response_id && !previousVisible) throw missingPrevious();
        const chat = providerFor(candidate, 'chat');
        const request = { ...chatRequest, model: candidate.upstreamModel };
        return body.stream
          ? { mode: 'chat-stream', events: await chat.chatStream(request) }
          : { mode: 'chat', result: await chat.chat(request) };
      },
    );

    const keep = async (response: Record<string, unknown>, native: boolean): Promise<void> => {
      if (body.store === false || typeof response.id !== 'string') return;
      await this.store.insert({
        id: response.id,
        created_at: Math.floor(Date.now() / 1000),
        key_id: caller.keyId,
        native,
        response,
        input_items: inputItems,
        context_items: native ? [] : context,
      });
    };
    const skeleton = responseSkeleton(body, servedRoute.id);
    switch (served.mode) {
      case 'chat': {
        meter.charge(servedRoute, served.result.usage);
        const choice = served.result.choices[0];
        const response = finishResponse(
          skeleton,
          choiceToOutput(choice),
          choice?.finish_reason ?? 'stop',
          served.result.usage,
        );
        await keep(response, false);
        return { kind: 'json', response };
      }
      case 'chat-stream': {
        const estimate = StreamUsageEstimate.forChat(messages);
        meter.chargeEstimateIfAbandoned(servedRoute, estimate);
        const finish = (response: ResponseObjectType, usage: TokenUsage): void => {
          meter.charge(servedRoute, usage);
          void keep(response, false).catch(warnUnstored);
        };
        return { kind: 'stream', events: chatStreamToResponseEvents(served.events, skeleton, finish, estimate) };
      }
      case 'native': {
        const response = { ...served.result, model: servedRoute.id };
        meter.charge(servedRoute, usageOf(served.result.usage) ?? StreamUsageEstimate.forChat(messages).usage());
        await keep(response, true);
        // The upstream's own response object: the same wire shape, passed through.
        return { kind: 'json', response: response as unknown as ResponseObjectType };
      }
      case 'native-stream': {
        const estimate = StreamUsageEstimate.forChat(messages);
        meter.chargeEstimateIfAbandoned(servedRoute, estimate);
        return {
          kind: 'stream',
          events: relayNativeEvents(
            served.events,
            servedRoute,
            estimate,
            meter,
            (response) => void keep(response, true).catch(warnUnstored),
          ),
        };
      }
    }
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

/** A streamed response is stored after its last event: a failed write is reported, the client already has the answer. */
function warnUnstored(error: unknown): void {
  process.emitWarning(`Responses: could not store a streamed response: ${String(error)}`);
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

/**
 * The body for an upstream that speaks the Responses API. A previous response this gateway produced
 * by translation is unknown upstream, so its conversation is sent as input instead of its id.
 */
function nativeRequest(
  body: ResponsesBodyType,
  upstreamModel: string,
  previous: StoredResponseRecord | undefined,
  inputItems: StoredInputItemType[],
): Record<string, unknown> {
  const request: Record<string, unknown> = { ...body, model: upstreamModel };
  if (previous && !previous.native) {
    delete request.previous_response_id;
    request.input = [...conversationOf(previous), ...inputItems].map(({ id: _id, ...item }) => item);
  }
  return request;
}

function usageOf(value: unknown): TokenUsage | undefined {
  if (!isRecord(value) || typeof value.input_tokens !== 'number' || typeof value.output_tokens !== 'number')
    return undefined;
  return { prompt_tokens: value.input_tokens, completion_tokens: value.output_tokens };
}

/** Relays an upstream's Responses events with the gateway's model id in every response snapshot; bills and stores the final response. */
async function* relayNativeEvents(
  events: AsyncIterable<ResponsesUpstreamEvent>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
  keep: (response: Record<string, unknown>) => void,
): AsyncGenerator<ResponseStreamEvent> {
  let sequence = 0;
  for await (const event of events) {
    if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') estimate.add(event.delta);
    const relayed: ResponseStreamEvent = {
      ...event,
      sequence_number: sequence++,
      ...(isRecord(event.response) ? { response: { ...event.response, model: route.id } } : {}),
    };
    if ((event.type === 'response.completed' || event.type === 'response.incomplete') && isRecord(relayed.response)) {
      meter.charge(route, usageOf(relayed.response.usage) ?? estimate.usage());
      keep(relayed.response);
    }
    yield relayed;
  }
}
