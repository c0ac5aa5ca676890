import { Counter, Gauge, Registry } from 'prom-client';
import { OtelHistogram, type HistogramSpec, type Underscored } from './otel-histogram.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { BreakerState } from '../routing/circuit-breaker.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import { genAiProviderName } from '../tracing/gen-ai-attributes.js';

/** OpenTelemetry GenAI operation names where one exists; the gateway's own for the rest. */
export const OPERATION_BY_CAPABILITY: Record<Capability, string> = {
  chat: 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
  ocr: 'ocr',
  documents: 'document_qna',
  vision: 'image_analysis',
  image_generation: 'image_generation',
  transcription: 'transcription',
  moderation: 'moderation',
  classification: 'classification',
};

// Bucket boundaries the OpenTelemetry GenAI semantic conventions advise for each histogram.
const GEN_AI_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TIME_TO_FIRST_TOKEN_BUCKETS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
const TIME_PER_OUTPUT_TOKEN_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const BREAKER_STATES: BreakerState[] = ['closed', 'open', 'half_open'];

const GEN_AI_ATTRIBUTES = [
  'gen_ai.operation.name',
  'gen_ai.request.model',
  'gen_ai.response.model',
  'gen_ai.provider.name',
  'switchyard.provider.id',
] as const;
type GenAiAttribute = (typeof GEN_AI_ATTRIBUTES)[number];

/**
 * The attributes of one model operation: its model ids are the gateway's route ids; its provider is
 * named as the conventions name it (`gen_ai.provider.name`: `openai`, `mistral_ai`, from its type)
 * and by the configured provider's id (`switchyard.provider.id`), which tells two providers of one kind apart.
 */
export interface GenAiLabels {
  operation: string;
  /** The route the client named ('unknown' for a name no route serves, so clients cannot add series). */
  requestModel: string;
  /** The route that answered ('' when none did); another than requestModel after a fallback. */
  responseModel: string;
  /** The provider that answered (or was tried last); none when no route was found. */
  provider: Pick<ProviderInstance, 'id' | 'type'> | undefined;
}

/**
 * The gateway's Prometheus metrics, in a registry of its own (one per gateway, no global state).
 * Names follow the OpenTelemetry GenAI and HTTP semantic conventions, dots as underscores;
 * gateway-specific ones start with `switchyard_`. Breaker states and queue depths are read at scrape
 * time. The histograms are also what an OTLP export sends (`histograms`, otlp-metrics-export.ts).
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: OtelHistogram<'http.request.method' | 'http.route' | 'http.response.status_code'>;
  private readonly errors: Counter;
  private readonly serverDuration: OtelHistogram<GenAiAttribute | 'error.type'>;
  private readonly timeToFirstToken: OtelHistogram<GenAiAttribute>;
  private readonly timePerOutputToken: OtelHistogram<GenAiAttribute>;
  private readonly clientDuration: OtelHistogram<GenAiAttribute | 'error.type'>;
  private readonly tokenUsage: OtelHistogram<GenAiAttribute | 'gen_ai.token.type'>;
  /** OTLP exports that failed (the collector down, slow or refusing): none of them held up a request. */
  private readonly exportFailures: Counter;

  constructor(providers: ReadonlyMap<string, ProviderInstance>, breakers: ProviderBreakers) {
    const registers = [this.registry];
    const histogram = <Attribute extends string>(spec: HistogramSpec<Attribute>) =>
      new OtelHistogram(spec, this.registry);
    const genAi = GEN_AI_ATTRIBUTES;
    this.httpDuration = histogram({
      name: 'http.server.request.duration',
      unit: 's',
      description: 'Duration of HTTP server requests, by route template and status code.',
      attributes: ['http.request.method', 'http.route', 'http.response.status_code'],
      buckets: HTTP_DURATION_BUCKETS,
    });
    this.errors = new Counter({
      name: 'switchyard_errors_total',
      help: "Error responses, by error type (the error body's code) and status code.",
      labelNames: ['error_type', 'http_response_status_code'],
      registers,
    });
    this.serverDuration = histogram({
      name: 'gen_ai.server.request.duration',
      unit: 's',
      description: 'Duration of model requests served by the gateway, until the last byte of the answer.',
      attributes: [...genAi, 'error.type'],
      buckets: GEN_AI_DURATION_BUCKETS,
    });
    this.timeToFirstToken = histogram({
      name: 'gen_ai.server.time_to_first_token',
      unit: 's',
      description: "A successful stream's time from the request to its first content leaving the gateway.",
      attributes: genAi,
      buckets: TIME_TO_FIRST_TOKEN_BUCKETS,
    });
    this.timePerOutputToken = histogram({
      name: 'gen_ai.server.time_per_output_token',
      unit: 's',
      description:
        "A successful stream's time per output token after the first: (duration - time to first token) / (output tokens - 1).",
      attributes: genAi,
      buckets: TIME_PER_OUTPUT_TOKEN_BUCKETS,
    });
    this.clientDuration = histogram({
      name: 'gen_ai.client.operation.duration',
      unit: 's',
      description:
        "Duration of the gateway's calls to its providers (retries and fallbacks included; for a stream, until it starts).",
      attributes: [...genAi, 'error.type'],
      buckets: GEN_AI_DURATION_BUCKETS,
    });
    this.tokenUsage = histogram({
      name: 'gen_ai.client.token.usage',
      unit: '{token}',
      description: 'Tokens used per request (the billed usage), by token type (input, output).',
      attributes: [...genAi, 'gen_ai.token.type'],
      buckets: TOKEN_BUCKETS,
    });
    this.exportFailures = new Counter({
      name: 'switchyard_otlp_metric_export_failures_total',
      help: 'OTLP metric exports that failed or timed out (the collector down, slow or refusing).',
      registers,
    });
    new Gauge({
      name: 'switchyard_provider_breaker_state',
      help: 'Circuit breaker of each provider: 1 for its current state (closed, open, half_open), 0 for the others.',
      labelNames: ['switchyard_provider_id', 'state'],
      registers,
      collect() {
        for (const id of providers.keys()) {
          const current = breakers.for(id).state;
          for (const state of BREAKER_STATES)
            this.set({ switchyard_provider_id: id, state }, state === current ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'switchyard_provider_breaker_consecutive_failures',
      help: 'Failed requests in a row to each provider (the retries of one request count once).',
      labelNames: ['switchyard_provider_id'],
      registers,
      collect() {
        for (const id of providers.keys())
          this.set({ switchyard_provider_id: id }, breakers.snapshot(id).consecutive_failures);
      },
    });
    new Gauge({
      name: 'switchyard_engine_queue_requests',
      help: 'Requests waiting for or running on a local engine queue (a llama.cpp model, the OCR workers).',
      labelNames: ['switchyard_provider_id', 'queue', 'state'],
      registers,
      collect() {
        this.reset();
        for (const provider of providers.values()) {
          for (const { queue, waiting, running } of provider.queues?.() ?? []) {
            this.set({ switchyard_provider_id: provider.id, queue, state: 'waiting' }, waiting);
            this.set({ switchyard_provider_id: provider.id, queue, state: 'running' }, running);
          }
        }
      },
    });
    new Gauge({
      name: 'process_resident_memory_bytes',
      help: 'Resident memory size in bytes.',
      registers,
      collect() {
        this.set(process.memoryUsage.rss());
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  httpRequest(method: string, route: string, status: number, seconds: number, errorType: string | undefined): void {
    this.httpDuration.observe(
      { http_request_method: method, http_route: route, http_response_status_code: status },
      seconds,
    );
    if (errorType !== undefined) this.errors.inc({ error_type: errorType, http_response_status_code: status });
  }

  modelRequest(
    labels: GenAiLabels,
    seconds: number,
    errorType: string | undefined,
    tokens: { input: number; output: number | undefined } | undefined,
  ): void {
    this.serverDuration.observe(withErrorType(labels, errorType), seconds);
    if (!tokens) return;
    this.tokenUsage.observe(withTokenType(labels, 'input'), tokens.input);
    if (tokens.output !== undefined) this.tokenUsage.observe(withTokenType(labels, 'output'), tokens.output);
  }

  /** A successful stream: its time to first token and, with more than one output token, the time per token after it. */
  streamed(
    labels: GenAiLabels,
    firstTokenSeconds: number,
    totalSeconds: number,
    outputTokens: number | undefined,
  ): void {
    const attributes = genAiAttributes(labels);
    this.timeToFirstToken.observe(attributes, firstTokenSeconds);
    if (outputTokens !== undefined && outputTokens > 1)
      this.timePerOutputToken.observe(attributes, (totalSeconds - firstTokenSeconds) / (outputTokens - 1));
  }

  providerCall(labels: GenAiLabels, seconds: number, errorType: string | undefined): void {
    this.clientDuration.observe(withErrorType(labels, errorType), seconds);
  }

  exportFailed(): void {
    this.exportFailures.inc();
  }

  /** The histograms, for an OTLP export: the GenAI ones and the HTTP server duration. */
  histograms(): readonly OtelHistogram<string>[] {
    return [
      this.httpDuration,
      this.serverDuration,
      this.timeToFirstToken,
      this.timePerOutputToken,
      this.clientDuration,
      this.tokenUsage,
    ];
  }
}

function genAiAttributes(labels: GenAiLabels): Record<Underscored<GenAiAttribute>, string> {
  return {
    gen_ai_operation_name: labels.operation,
    gen_ai_request_model: labels.requestModel,
    gen_ai_response_model: labels.responseModel,
    gen_ai_provider_name: labels.provider ? genAiProviderName(labels.provider.type) : '',
    switchyard_provider_id: labels.provider?.id ?? '',
  };
}

// The next two write the GenAI attributes out rather than spread genAiAttributes' object: one
// object per observation instead of a copy that then grows by a field.

function withErrorType(labels: GenAiLabels, errorType: string | undefined) {
  return {
    gen_ai_operation_name: labels.operation,
    gen_ai_request_model: labels.requestModel,
    gen_ai_response_model: labels.responseModel,
    gen_ai_provider_name: labels.provider ? genAiProviderName(labels.provider.type) : '',
    switchyard_provider_id: labels.provider?.id ?? '',
    error_type: errorType ?? '',
  };
}

function withTokenType(labels: GenAiLabels, tokenType: 'input' | 'output') {
  return {
    gen_ai_operation_name: labels.operation,
    gen_ai_request_model: labels.requestModel,
    gen_ai_response_model: labels.responseModel,
    gen_ai_provider_name: labels.provider ? genAiProviderName(labels.provider.type) : '',
    switchyard_provider_id: labels.provider?.id ?? '',
    gen_ai_token_type: tokenType,
  };
}
