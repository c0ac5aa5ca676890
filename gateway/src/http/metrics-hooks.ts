import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayMetrics, GenAiLabels } from '../core/metrics/gateway-metrics.js';
import type { ModelRegistry } from '../core/routing/model-registry.js';
import { routeOf } from './request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the first frame of a streamed answer left (time to first token). */
    firstFrameAt: bigint | null;
  }
}

/** The model endpoints (every path they answer on) and their OpenTelemetry GenAI operation names. */
const OPERATION_BY_ROUTE: Readonly<Record<string, string>> = {
  '/v1/chat/completions': 'chat',
  '/chat/completions': 'chat',
  '/v1/agents/completions': 'invoke_agent',
  '/v1/completions': 'text_completion',
  '/v1/embeddings': 'embeddings',
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
 * code of their body, and for model endpoints the GenAI duration, time to first token and tokens.
 */
export function registerMetricsHooks(app: FastifyInstance, metrics: GatewayMetrics, models: ModelRegistry): void {
  const errorTypes = new WeakMap<FastifyRequest, string>();
  app.decorateRequest('firstFrameAt', null);

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
    const labels = modelLabels(operation, request.billing.usage?.model ?? requestedModel(request.body));
    const usage = request.billing.usage;
    metrics.modelRequest(
      labels,
      seconds,
      errorType,
      usage && status < 400 ? { input: usage.prompt_tokens, output: usage.completion_tokens } : undefined,
    );
    if (request.firstFrameAt !== null)
      metrics.firstToken(labels, Number(request.firstFrameAt - request.startedAt) / 1e9);
  }

  /** Only models the gateway serves become label values, so clients cannot blow up the series count. */
  function modelLabels(operation: string, name: string | undefined): GenAiLabels {
    if (name === undefined) return { operation, model: '', provider: '' };
    try {
      const route = models.find(name);
      return { operation, model: route.id, provider: route.provider.id };
    } catch {
      return { operation, model: 'unknown', provider: '' };
    }
  }
}

function requestedModel(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('model' in body)) return undefined;
  return typeof body.model === 'string' ? body.model : undefined;
}
