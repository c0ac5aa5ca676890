import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isLoopbackAddress } from '../../http/host-guard.js';
import { errorResponses } from '../_shared/common-schemas.js';

/**
 * GET /metrics in the Prometheus text format. Bound to loopback (the default) it needs no key, like
 * /status: only processes on this machine reach it. Bound to any other address it needs an Owner key
 * (a scraper sends it as a bearer token), since model names and traffic are an operator's business.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const open = isLoopbackAddress(app.services.options.host);
  app.get(
    '/metrics',
    {
      config: { auth: open ? 'none' : 'owner', unlogged: true },
      schema: {
        tags: ['status'],
        summary: 'Prometheus metrics (OpenTelemetry GenAI and HTTP names)',
        description: 'Text exposition format 0.0.4. No key when the gateway is bound to loopback; an Owner key otherwise.',
        ...(open ? { security: [] } : {}),
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text exposition' }), ...errorResponses },
      },
    },
    async (_request, reply) => {
      const { metrics } = app.services;
      reply.header('content-type', metrics.contentType).header('cache-control', 'no-store');
      return metrics.exposition();
    },
  );
};
