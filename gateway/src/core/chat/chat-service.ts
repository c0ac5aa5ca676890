import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import type { ChatRequest, ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { FinishReason, TokenUsage } from '../../providers/contracts/sampling.js';
import type { SpanAttributes } from '../../providers/contracts/stage-tracer.js';
import { batchesOf } from '../../streaming/event-batches.js';
import type { RouteRunner, StickyKey } from '../routing/route-runner.js';
import type { ClientSchemaSizeLimits } from '../json/check-client-schema-size.js';
import { checkTurnSchemas, type TurnSchemaFields } from '../json/check-turn-schemas.js';
import type { GuardrailService } from '../guardrails/guardrail-service.js';
import type { RequestGuardrails } from '../guardrails/request-guardrails.js';
import { guardChatStream } from '../guardrails/guarded-streams.js';
import type { GatewayTracing } from '../tracing/gateway-tracing.js';
import { inputMessages, outputMessages, samplingAttributes } from '../tracing/gen-ai-attributes.js';
import type { TraceSpan } from '../tracing/request-trace.js';
import type { CacheAsk, CacheOutcome, ResponseCache } from '../cache/response-cache.js';

/** One chat turn as the client asked for it, apart from the model. */
export type ChatTurn = Omit<ChatRequest, 'model' | 'signal'>;

export type ChatOutcome =
  | { kind: 'json'; route: ModelRoute; result: ChatResult; cache?: CacheOutcome }
  /**
   * The provider's events in the batches they arrived in (the events of one upstream chunk), charged
   * as they pass (the final usage, or the estimate if the client leaves). `cache`: on a cached route.
   */
  | {
      kind: 'stream';
      route: ModelRoute;
      batches: AsyncIterable<readonly ChatStreamEvent[]>;
      cache?: CacheOutcome;
      /** The events are all at hand (a cache hit's replay): the stream may be produced whole, then sent. */
      whole?: boolean;
    };

/**
 * What a chat-completions request is answered by: a chat route, or document question answering on a
 * documents route (`writer`: the chat route the client named, which writes the answer under its rules).
 */
export type ChatTarget =
  { useCase: 'chat'; route: ModelRoute } | { useCase: 'documents'; route: ModelRoute; writer?: ModelRoute };

/** A whole chat turn another feature asked for: the answer's text, what it used, and the route that served it. */
export interface ChatAnswer {
  text: string;
  usage: TokenUsage;
  route: ModelRoute;
}

/** What a client's turn may bring beside its body. */
export interface ChatTurnOptions {
  /** The body's fields that hold client schemas, as errors name them. */
  fields?: TurnSchemaFields;
  /** The client's say over the route's response cache (its key, its Cache-Control). */
  cache?: CacheAsk;
  /** What keeps a user on one deployment of a balanced route. */
  stickyKey?: StickyKey;
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
    private readonly tracing?: GatewayTracing,
    private readonly cache?: ResponseCache,
    private readonly guardrails?: GuardrailService,
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
      if (request.hasDocumentPart && !found.capabilities.has('documents'))
        return {
          useCase: 'documents',
          route: this.models.resolveOrDefault(undefined, 'documents', DEFAULT_OCR_MODEL),
          writer: this.models.usable(found, name, 'chat'),
        };
      return { useCase: 'documents', route: this.models.usable(found, name, 'documents') };
    }
    return { useCase: 'chat', route: this.models.usable(found, name, 'chat') };
  }

  /** The language model other features lean on (schema filling, document answers): the default chat model if it is served, else any chat route. */
  helperRoute(): ModelRoute | undefined {
    const routes = this.models.withCapability('chat');
    return routes.find((route) => route.id === DEFAULT_CHAT_MODEL) ?? routes[0];
  }

  /**
   * A whole turn at temperature 0 for another feature, its estimate held beside the request's; its
   * usage adds to the bill. `named`: the route the client named (OCR, documents, vision), whose
   * guardrails run on this turn beside `route`'s and the key's.
   */
  async ask(
    route: ModelRoute,
    messages: ChatMessage[],
    options: { responseFormat?: ResponseFormat; maxTokens?: number; named?: ModelRoute },
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<ChatAnswer> {
    const guard = this.guardrailsOf(route, meter, options.named);
    const asked: ChatTurn = {
      messages,
      temperature: 0,
      max_tokens: options.maxTokens ?? 1024,
      response_format: options.responseFormat,
    };
    const turn = guard ? await guard.turn(asked, signal) : asked;
    checkTurnSchemas(turn, this.schemaLimits);
    await meter.reserveFurther(route, turn);
    const { value: answer, route: served } = await this.whole(route, turn, signal);
    meter.addCharge(served, answer.usage);
    const value = guard ? await guard.answer(answer, signal) : answer;
    return { text: value.choices[0]?.message.content ?? '', usage: value.usage, route: served };
  }

  /**
   * The request's own turn: its cost held if the request's body did not name the model, its client
   * schemas checked (`fields` names them in errors), then run, whole or streamed, and charged; on a
   * route with a response cache, answered from it or kept in it as `cache` (the client's) allows.
   */
  async complete(
    route: ModelRoute,
    asked: ChatTurn,
    stream: boolean,
    meter: UsageMeter,
    signal: AbortSignal,
    { fields, cache, stickyKey }: ChatTurnOptions = {},
  ): Promise<ChatOutcome> {
    await meter.reserveTurn(route, asked);
    checkTurnSchemas(asked, this.schemaLimits, fields);
    const guard = this.guardrailsOf(route, meter);
    const turn = guard ? await guard.turn(asked, signal) : asked;
    const cached = route.cache && (await this.cache?.lookup(route, turn, stream, cache, signal));
    // Noted now, so an answer that fails still says what the cache did (its X-Switchyard-Cache, the log).
    if (cached) meter.noteCache(cached.note);
    const hit = cached?.replay(meter);
    // A hit passes this request's output checks too: an account-wide entry may reach a key with stricter ones.
    if (hit) return guard ? guardedOutcome(hit, guard, signal) : hit;
    const attributes = this.spanAttributes(turn, stream);
    if (!stream) {
      const { value: answer, route: served } = await this.whole(route, turn, signal, attributes, stickyKey);
      meter.charge(served, answer.usage);
      const value = guard ? await guard.answer(answer, signal) : answer;
      const operation = this.operationSpan();
      if (operation) {
        operation.set(
          'gen_ai.response.finish_reasons',
          value.choices.map((choice) => choice.finish_reason),
        );
        if (this.tracing?.captureContent()) operation.set('gen_ai.output.messages', outputMessages(value.choices));
      }
      const outcome = { kind: 'json' as const, route: served, result: value };
      return cached ? cached.keep(outcome, meter) : outcome;
    }
    const { value: events, route: served } = await this.runner.invokeStream(
      route,
      'chat',
      signal,
      (chat, model, attemptSignal) => chat.chatStream({ ...turn, model, signal: attemptSignal }),
      'chat',
      attributes,
      stickyKey,
    );
    const estimate = StreamUsageEstimate.forChat(turn.messages);
    meter.chargeEstimateIfAbandoned(served, estimate);
    const operation = this.operationSpan();
    const trace = operation && new StreamTrace(operation, this.tracing?.captureContent() ?? false);
    const outcome = {
      kind: 'stream' as const,
      route: served,
      batches: guardedBatches(metered(batchesOf(events), served, estimate, meter, trace), guard, signal),
    };
    return cached ? cached.keep(outcome, meter) : outcome;
  }

  /** The request's guardrails (its route's, the named route's and its key's), when it has any. */
  private guardrailsOf(route: ModelRoute, meter: UsageMeter, named?: ModelRoute): RequestGuardrails | undefined {
    return route.guardrails || named?.guardrails || meter.keyGuardrails
      ? this.guardrails?.for(route, meter, { named })
      : undefined;
  }

  private whole(
    route: ModelRoute,
    turn: ChatTurn,
    signal: AbortSignal,
    attributes?: SpanAttributes,
    stickyKey?: StickyKey,
  ) {
    return this.runner.invoke(
      route,
      'chat',
      signal,
      (chat, model, attemptSignal) => chat.chat({ ...turn, model, signal: attemptSignal }),
      'chat',
      attributes,
      stickyKey,
    );
  }

  /** The GenAI span's request attributes; the messages only when an Owner turned content capture on. */
  private spanAttributes(turn: ChatTurn, stream: boolean): SpanAttributes | undefined {
    if (!this.tracing) return undefined;
    const attributes = samplingAttributes(turn, stream);
    if (this.tracing.captureContent()) attributes['gen_ai.input.messages'] = inputMessages(turn.messages);
    return attributes;
  }

  /** The request's GenAI span, which the response's attributes go on. */
  private operationSpan(): TraceSpan | undefined {
    return this.tracing?.active()?.trace.operation;
  }
}

/** A stream's finish reasons (and, with content capture, its text) on the request's GenAI span as they pass. */
class StreamTrace {
  private readonly finishReasons: FinishReason[] = [];
  private readonly texts: string[] = [];

  constructor(
    private readonly span: TraceSpan,
    private readonly captureContent: boolean,
  ) {}

  see(event: ChatStreamEvent): void {
    if (event.type === 'finish') {
      this.finishReasons[event.index] = event.finish_reason;
      this.span.set(
        'gen_ai.response.finish_reasons',
        this.finishReasons.filter((reason) => reason !== undefined),
      );
    } else if (this.captureContent && event.type === 'delta' && event.content)
      this.texts[event.index] = (this.texts[event.index] ?? '') + event.content;
  }

  end(): void {
    if (!this.captureContent) return;
    const choices = this.texts.map((content, index) => ({
      index,
      message: { role: 'assistant' as const, content },
      finish_reason: this.finishReasons[index] ?? 'stop',
    }));
    this.span.set('gen_ai.output.messages', outputMessages(choices));
  }
}

/** The batches as they pass, charged: the final usage, or the estimate grown by the text that went by. */
async function* metered(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  route: ModelRoute,
  estimate: StreamUsageEstimate,
  meter: UsageMeter,
  trace: StreamTrace | undefined,
): AsyncGenerator<readonly ChatStreamEvent[]> {
  for await (const batch of batches) {
    for (const event of batch) {
      if (event.type === 'usage') meter.charge(route, event.usage);
      else if (event.type === 'delta') {
        estimate.add(event.content);
        for (const call of event.tool_calls ?? []) estimate.add(call.function?.arguments);
      }
      trace?.see(event);
    }
    yield batch;
  }
  trace?.end();
}

function guardedBatches(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  guard: RequestGuardrails | undefined,
  signal: AbortSignal,
): AsyncIterable<readonly ChatStreamEvent[]> {
  const streamGuard = guard?.outputStream(signal);
  return streamGuard ? guardChatStream(batches, streamGuard) : batches;
}

/** An answer (a cache hit's) with the request's output checks run over it. */
async function guardedOutcome(
  outcome: ChatOutcome,
  guard: RequestGuardrails,
  signal: AbortSignal,
): Promise<ChatOutcome> {
  return outcome.kind === 'json'
    ? { ...outcome, result: await guard.answer(outcome.result, signal) }
    : // Checked as it goes: a rule that blocks cuts the stream with an error frame, as a live one's does.
      {
        kind: 'stream',
        route: outcome.route,
        cache: outcome.cache,
        batches: guardedBatches(outcome.batches, guard, signal),
      };
}
