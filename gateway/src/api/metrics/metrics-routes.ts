import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../_shared/common-schemas.js';
import type { GatewayMetrics } from '../../core/metrics/gateway-metrics.js';

/**
 * GET /metrics in the Prometheus text format, for an Owner key or the metrics token
 * (server.metrics_token, GATEWAY_METRICS_TOKEN) sent as a bearer token: model names, traffic and
 * error counts are an operator's business, also on a loopback-bound gateway, where every local
 * process and user reaches the port. The health probes stay public.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: GatewayMetrics }> = async (app, { metrics }) => {
  app.get(
    '/metrics',
    {
      config: { auth: 'owner-or-metrics-token', unlogged: true },
      schema: {
        tags: ['status'],
        summary: 'Prometheus metrics (OpenTelemetry GenAI and HTTP names)',
        description:
          'Text exposition format 0.0.4. Needs an Owner key, or the metrics token (server.metrics_token, GATEWAY_METRICS_TOKEN) as a bearer token.',
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition' }), ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('content-type', metrics.contentType).header('cache-control', 'no-store');
      return metrics.exposition();
    },
  );
};
