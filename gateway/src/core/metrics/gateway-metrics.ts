import { Counter, Gauge, Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { BreakerState } from '../routing/circuit-breaker.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';

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
};

// Bucket boundaries advised by the OpenTelemetry semantic conventions.
const GEN_AI_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TIME_TO_FIRST_TOKEN_BUCKETS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const BREAKER_STATES: BreakerState[] = ['closed', 'open', 'half_open'];

const GEN_AI_LABEL_NAMES = ['gen_ai_operation_name', 'gen_ai_request_model', 'gen_ai_provider_name'] as const;
type GenAiLabelName = (typeof GEN_AI_LABEL_NAMES)[number];

export interface GenAiLabels {
  operation: string;
  model: string;
  provider: string;
}

/**
 * The gateway's Prometheus metrics, in a registry of its own (one per gateway, no global state).
 * Names follow the OpenTelemetry GenAI and HTTP semantic conventions, dots as underscores;
 * gateway-specific ones start with `switchyard_`. Breaker states and queue depths are read at scrape time.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: FastHistogram<'http_request_method' | 'http_route' | 'http_response_status_code'>;
  private readonly errors: Counter;
  private readonly serverDuration: FastHistogram<GenAiLabelName | 'error_type'>;
  private readonly timeToFirstToken: FastHistogram<GenAiLabelName>;
  private readonly clientDuration: FastHistogram<GenAiLabelName | 'error_type'>;
  private readonly tokenUsage: FastHistogram<GenAiLabelName | 'gen_ai_token_type'>;

  constructor(providers: ReadonlyMap<string, ProviderInstance>, breakers: ProviderBreakers) {
    const registers = [this.registry];
    const histogram = <Label extends string>(
      name: string,
      help: string,
      labelNames: readonly Label[],
      buckets: number[],
    ) => new FastHistogram(name, help, labelNames, buckets, this.registry);
    const genAi = GEN_AI_LABEL_NAMES;
    this.httpDuration = histogram(
      'http_server_request_duration_seconds',
      'Duration of HTTP server requests, by route template and status code.',
      ['http_request_method', 'http_route', 'http_response_status_code'],
      HTTP_DURATION_BUCKETS,
    );
    this.errors = new Counter({
      name: 'switchyard_errors_total',
      help: "Error responses, by error type (the error body's code) and status code.",
      labelNames: ['error_type', 'http_response_status_code'],
      registers,
    });
    this.serverDuration = histogram(
      'gen_ai_server_request_duration_seconds',
      'Duration of model requests served by the gateway, until the last byte of the answer.',
      [...genAi, 'error_type'],
      GEN_AI_DURATION_BUCKETS,
    );
    this.timeToFirstToken = histogram(
      'gen_ai_server_time_to_first_token_seconds',
      'Time from the request to the first streamed chunk of the answer.',
      genAi,
      TIME_TO_FIRST_TOKEN_BUCKETS,
    );
    this.clientDuration = histogram(
      'gen_ai_client_operation_duration_seconds',
      "Duration of the gateway's calls to its providers (retries and fallbacks included; for a stream, until it starts).",
      [...genAi, 'error_type'],
      GEN_AI_DURATION_BUCKETS,
    );
    this.tokenUsage = histogram(
      'gen_ai_client_token_usage',
      'Tokens used per request, by token type (input, output).',
      [...genAi, 'gen_ai_token_type'],
      TOKEN_BUCKETS,
    );
    new Gauge({
      name: 'switchyard_provider_breaker_state',
      help: 'Circuit breaker of each provider: 1 for its current state (closed, open, half_open), 0 for the others.',
      labelNames: ['gen_ai_provider_name', 'state'],
      registers,
      collect() {
        for (const id of providers.keys()) {
          const current = breakers.for(id).state;
          for (const state of BREAKER_STATES) this.set({ gen_ai_provider_name: id, state }, state === current ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'switchyard_provider_breaker_consecutive_failures',
      help: 'Failed requests in a row to each provider (the retries of one request count once).',
      labelNames: ['gen_ai_provider_name'],
      registers,
      collect() {
        for (const id of providers.keys())
          this.set({ gen_ai_provider_name: id }, breakers.snapshot(id).consecutive_failures);
      },
    });
    new Gauge({
      name: 'switchyard_engine_queue_requests',
      help: 'Requests waiting for or running on a local engine queue (a llama.cpp model, the OCR workers).',
      labelNames: ['gen_ai_provider_name', 'queue', 'state'],
      registers,
      collect() {
        this.reset();
        for (const provider of providers.values()) {
          for (const { queue, waiting, running } of provider.queues?.() ?? []) {
            this.set({ gen_ai_provider_name: provider.id, queue, state: 'waiting' }, waiting);
            this.set({ gen_ai_provider_name: provider.id, queue, state: 'running' }, running);
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
    tokens: { input: number; output: number } | undefined,
  ): void {
    const { operation, model, provider } = labels;
    this.serverDuration.observe(
      {
        gen_ai_operation_name: operation,
        gen_ai_request_model: model,
        gen_ai_provider_name: provider,
        error_type: errorType ?? '',
      },
      seconds,
    );
    if (!tokens) return;
    this.tokenUsage.observe(
      {
        gen_ai_operation_name: operation,
        gen_ai_request_model: model,
        gen_ai_provider_name: provider,
        gen_ai_token_type: 'input',
      },
      tokens.input,
    );
    this.tokenUsage.observe(
      {
        gen_ai_operation_name: operation,
        gen_ai_request_model: model,
        gen_ai_provider_name: provider,
        gen_ai_token_type: 'output',
      },
      tokens.output,
    );
  }

  firstToken(labels: GenAiLabels, seconds: number): void {
    this.timeToFirstToken.observe(
      {
        gen_ai_operation_name: labels.operation,
        gen_ai_request_model: labels.model,
        gen_ai_provider_name: labels.provider,
      },
      seconds,
    );
  }

  providerCall(labels: GenAiLabels, seconds: number, errorType: string | undefined): void {
    this.clientDuration.observe(
      {
        gen_ai_operation_name: labels.operation,
        gen_ai_request_model: labels.model,
        gen_ai_provider_name: labels.provider,
        error_type: errorType ?? '',
      },
      seconds,
    );
  }
}
