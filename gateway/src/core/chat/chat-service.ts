import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import type { ChatRequest, ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import { batchedEvents, batchesOf, type BatchedEvents } from '../../streaming/event-batches.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { ClientSchemaSizeLimits } from '../json/check-client-schema-size.js';
import { checkTurnSchemas } from '../json/check-turn-schemas.js';

/** One chat turn as the client asked for it, apart from the model. */
export type ChatTurn = Omit<ChatRequest, 'model' | 'signal'>;

export type ChatOutcome =
  | { kind: 'json'; route: ModelRoute; result: ChatResult }
  /** The provider's events, charged as they pass (the final usage, or the estimate if the client leaves). */
  | { kind: 'stream'; route: ModelRoute; events: AsyncIterable<ChatStreamEvent> };

/** What a chat-completions request is answered by: a chat route, or document question answering on a documents route. */
export type ChatTarget = { useCase: 'chat'; route: ModelRoute } | { useCase: 'documents'; route: ModelRoute };

/** Chat completions on a chat route, with its retries and fallbacks: a whole answer, or a stream of events. */
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
   */
  target(request: { model?: string; asksAboutDocument: boolean; hasDocumentPart: boolean }): ChatTarget {
    if (!request.model) {
      return request.asksAboutDocument
        ? { useCase: 'documents', route: this.models.resolveOrDefault(undefined, 'documents', DEFAULT_OCR_MODEL) }
        : { useCase: 'chat', route: this.models.resolveOrDefault(undefined, 'chat', DEFAULT_CHAT_MODEL) };
    }
    const name = request.model;
    const found = this.models.find(name, request.asksAboutDocument ? 'documents' : 'chat');
    if (request.asksAboutDocument || (found.capabilities.has('documents') && !found.capabilities.has('chat'))) {
      const route =
        request.hasDocumentPart && !found.capabilities.has('documents')
          ? this.models.resolveOrDefault(undefined, 'documents', DEFAULT_OCR_MODEL)
          : this.models.resolve(name, 'documents');
      return { useCase: 'documents', route };
    }
    return { useCase: 'chat', route: this.models.resolve(name, 'chat') };
  }

  async complete(
    route: ModelRoute,
    turn: ChatTurn,
    stream: boolean,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ChatOutcome> {
    checkTurnSchemas(turn, this.schemaLimits);
    if (!stream) {
      const { value, route: served } = await this.runner.invoke(route, 'chat', signal, (chat, model, attemptSignal) =>
        chat.chat({ ...turn, model, signal: attemptSignal }),
      );
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
    return { kind: 'stream', route: served, events: metered(events, served, estimate, meter) };
  }
}

/** The events as they pass, charged: the final usage, or the estimate grown by the text that went by. */
function metered(
  events: AsyncIterable<ChatStreamEvent>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
): BatchedEvents<ChatStreamEvent> {
  return batchedEvents(meteredBatches(batchesOf(events), route, estimate, meter));
}

async function* meteredBatches(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
): AsyncGenerator<readonly ChatStreamEvent[]> {
  for await (const batch of batches) {
    for (const event of batch) {
      if (event.type === 'usage') meter.charge(route, event.usage);
      else if (event.type === 'delta') estimate.add(event.content);
    }
    yield batch;
  }
}
