import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayMetrics, GenAiLabels } from '../core/metrics/gateway-metrics.js';
import type { ModelRegistry, ModelRoute } from '../core/routing/model-registry.js';
import { routeOf } from './request-context.js';

/** The model endpoints (every path they answer on) and their OpenTelemetry GenAI operation names. */
const OPERATION_BY_ROUTE: Readonly<Record<string, string>> = {
  '/v1/chat/completions': 'chat',
  '/chat/completions': 'chat',
  '/v1/agents/completions': 'invoke_agent',
  '/v1/completions': 'text_completion',
  '/v1/fim/completions': 'text_completion',
  '/v1/responses': 'chat',
  // A conversation's turn runs on the chat path, for an agent or a model alike.
  '/v1/conversations': 'chat',
  '/v1/conversations/:conversation_id': 'chat',
  '/v1/conversations/:conversation_id/restart': 'chat',
  '/v1/embeddings': 'embeddings',
  '/v1/moderations': 'moderation',
  '/v1/chat/moderations': 'moderation',
  '/v1/classifications': 'classification',
  '/v1/chat/classifications': 'classification',
  '/v1/ocr': 'ocr',
  '/v1/audio/transcriptions': 'transcription',
  '/transcript': 'transcription',
  '/v1/images/generations': 'image_generation',
  '/v1/vision/generate': 'image_generation',
  '/v1/vision/analyze': 'image_analysis',
};

const ERROR_CODE = /"code":"([^"]{1,100})"/;

/**
 * Feeds /metrics from every response: HTTP duration by route template and status, errors by the
 * code of their body, and for model endpoints the GenAI duration and tokens, and for their streams
 * the time to first token and per output token.
 */
export function registerMetricsHooks(app: FastifyInstance, metrics: GatewayMetrics, models: ModelRegistry): void {
  const errorTypes = new WeakMap<FastifyRequest, string>();

  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = ERROR_CODE.exec(payload)?.[1];
      if (code) errorTypes.set(request, code);
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    observe(request, reply.statusCode);
    done();
  });

  function observe(request: FastifyRequest, status: number): void {
    const now = process.hrtime.bigint();
    const seconds = Number(now - request.startedAt) / 1e9;
    const route = routeOf(request).url ?? 'unmatched';
    const errorType = status >= 400 ? (errorTypes.get(request) ?? String(status)) : undefined;
    metrics.httpRequest(request.method, route, status, seconds, errorType);

    const operation = OPERATION_BY_ROUTE[route];
    if (!operation) return;
    const labels = genAiLabels(operation, request);
    const usage = request.billing.usage;
    const succeeded = status < 400 && !request.failure;
    metrics.modelRequest(
      labels,
      seconds,
      errorType ?? (request.failure ? (request.failure.code ?? 'stream_failed') : undefined),
      usage && succeeded
        ? {
            input: usage.prompt_tokens,
            // An embedding has no output tokens to count.
            output: operation === 'embeddings' ? undefined : usage.completion_tokens,
          }
        : undefined,
    );
    if (request.firstTokenAt !== null && succeeded)
      metrics.streamed(
        labels,
        Number(request.firstTokenAt - request.startedAt) / 1e9,
        seconds,
        usage?.completion_tokens,
      );
  }

  /**
   * The request's model attributes. Only routes the gateway serves become label values, so clients
   * cannot blow up the series count; the route the spend reservation found is not looked up again.
   */
  function genAiLabels(operation: string, request: FastifyRequest): GenAiLabels {
    const billing = request.billing;
    const name = requestedModel(request.body);
    const requested = billing.namedRoute ?? (name === undefined ? undefined : routeNamed(name));
    const servedId = billing.usage?.model ?? undefined;
    const served = servedId === undefined || servedId === requested?.id ? requested : routeNamed(servedId);
    return {
      operation,
      requestModel: requested?.id ?? (name === undefined ? (served?.id ?? '') : 'unknown'),
      responseModel: servedId === undefined ? '' : (served?.id ?? ''),
      provider: (served ?? requested)?.provider,
    };
  }

  function routeNamed(name: string): ModelRoute | undefined {
    try {
      return models.find(name);
    } catch {
      return undefined;
    }
  }
}

function requestedModel(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('model' in body)) return undefined;
  return typeof body.model === 'string' ? body.model : undefined;
}
