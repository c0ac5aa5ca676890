import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import type { ChatRequest, ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import { batchesOf } from '../../streaming/event-batches.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { ClientSchemaSizeLimits } from '../json/check-client-schema-size.js';
import { checkTurnSchemas, type TurnSchemaFields } from '../json/check-turn-schemas.js';

/** One chat turn as the client asked for it, apart from the model. */
export type ChatTurn = Omit<ChatRequest, 'model' | 'signal'>;

export type ChatOutcome =
  | { kind: 'json'; route: ModelRoute; result: ChatResult }
  /**
   * The provider's events in the batches they arrived in (the events of one upstream chunk), charged
   * as they pass (the final usage, or the estimate if the client leaves).
   */
  | { kind: 'stream'; route: ModelRoute; batches: AsyncIterable<readonly ChatStreamEvent[]> };

/** What a chat-completions request is answered by: a chat route, or document question answering on a documents route. */
export type ChatTarget = { useCase: 'chat'; route: ModelRoute } | { useCase: 'documents'; route: ModelRoute };

/** A whole chat turn another feature asked for: the answer's text, what it used, and the route that served it. */
export interface ChatAnswer {
  text: string;
  usage: TokenUsage;
  route: ModelRoute;
}

/**
 * The one chat path: every chat turn (chat completions, conversations, agents, and the turns OCR,
 * documents and vision ask for) is checked, run with its retries and fallbacks and billed here.
 */
export class ChatService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly schemaLimits: ClientSchemaSizeLimits,
  ) {}

  /**
   * Document question answering when the client asks about a document (`document` + `question`, or a
   * `document_url` part) or names a documents model that cannot chat; chat otherwise. A document_url
   * part sent to a chat model is read by the default documents model; the chat model writes the answer.
   * `named` is the route `model` names when the spend reservation found it already.
   */
  target(request: {
    model?: string;
    named?: ModelRoute;
    asksAboutDocument: boolean;
    hasDocumentPart: boolean;
  }): ChatTarget {
    if (!request.model) {
      return request.asksAboutDocument
        ? { useCase: 'documents', route: this.models.resolveOrDefault(undefined, 'documents', DEFAULT_OCR_MODEL) }
        : { useCase: 'chat', route: this.models.resolveOrDefault(undefined, 'chat', DEFAULT_CHAT_MODEL) };
    }
    const name = request.model;
    const found = request.named ?? this.models.find(name, request.asksAboutDocument ? 'documents' : 'chat');
    if (request.asksAboutDocument || (found.capabilities.has('documents') && !found.capabilities.has('chat'))) {
      const route =
        request.hasDocumentPart && !found.capabilities.has('documents')
          ? this.models.resolveOrDefault(undefined, 'documents', DEFAULT_OCR_MODEL)
          : this.models.usable(found, name, 'documents');
      return { useCase: 'documents', route };
    }
    return { useCase: 'chat', route: this.models.usable(found, name, 'chat') };
  }

  /** The language model other features lean on (schema filling, document answers): the default chat model if it is served, else any chat route. */
  helperRoute(): ModelRoute | undefined {
    const routes = this.models.withCapability('chat');
    return routes.find((route) => route.id === DEFAULT_CHAT_MODEL) ?? routes[0];
  }

  /** A whole turn at temperature 0 for another feature; its usage adds to the request's bill. */
  async ask(
    route: ModelRoute,
    messages: ChatMessage[],
    options: { responseFormat?: ResponseFormat; maxTokens?: number },
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ChatAnswer> {
    const turn: ChatTurn = {
      messages,
      temperature: 0,
      max_tokens: options.maxTokens ?? 1024,
      response_format: options.responseFormat,
    };
    checkTurnSchemas(turn, this.schemaLimits);
    const { value, route: served } = await this.whole(route, turn, signal);
    meter.addCharge(served, value.usage);
    return { text: value.choices[0]?.message.content ?? '', usage: value.usage, route: served };
  }

  /**
   * The request's own turn: its cost held if the request's body did not name the model, its client
   * schemas checked (`fields` names them in errors), then run, whole or streamed, and charged.
   */
  async complete(
    route: ModelRoute,
    turn: ChatTurn,
    stream: boolean,
    meter: UsageMeter,
    signal: AbortSignal,
    fields?: TurnSchemaFields,
  ): Promise<ChatOutcome> {
    await meter.reserveTurn(route, turn);
    checkTurnSchemas(turn, this.schemaLimits, fields);
    if (!stream) {
      const { value, route: served } = await this.whole(route, turn, signal);
      meter.charge(served, value.usage);
      return { kind: 'json', route: served, result: value };
    }
    const { value: events, route: served } = await this.runner.invoke(
      route,
      'chat',
      signal,
      (chat, model, attemptSignal) => chat.chatStream({ ...turn, model, signal: attemptSignal }),
    );
    const estimate = StreamUsageEstimate.forChat(turn.messages);
    meter.chargeEstimateIfAbandoned(served, estimate);
    return { kind: 'stream', route: served, batches: metered(batchesOf(events), served, estimate, meter) };
  }

  private whole(route: ModelRoute, turn: ChatTurn, signal: AbortSignal) {
    return this.runner.invoke(route, 'chat', signal, (chat, model, attemptSignal) =>
      chat.chat({ ...turn, model, signal: attemptSignal }),
    );
  }
}

/** The batches as they pass, charged: the final usage, or the estimate grown by the text that went by. */
async function* metered(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
): AsyncGenerator<readonly ChatStreamEvent[]> {
  for await (const batch of batches) {
    for (const event of batch) {
      if (event.type === 'usage') meter.charge(route, event.usage);
      else if (event.type === 'delta') {
        estimate.add(event.content);
        for (const call of event.tool_calls ?? []) estimate.add(call.function?.arguments);
      }
    }
    yield batch;
  }
}
