import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StatusResponse } from './status-schemas.js';
import type { GatewayStatus } from '../../core/status/gateway-status.js';

/** GET /status: availability, the engines' real state and every provider's circuit breaker; 503 while starting. */
export const statusRoutes: FastifyPluginAsyncTypebox<{ status: GatewayStatus }> = async (app, { status }) => {
  app.get(
    '/status',
    {
      config: { auth: 'none', unlogged: true },
      schema: {
        tags: ['status'],
        summary: 'Gateway status',
        security: [],
        response: { 200: StatusResponse, 503: StatusResponse },
      },
    },
    async (request, reply) => {
      const report = status.report();
      if (report.status === 'starting') reply.status(503).header('Retry-After', '10');
      return { ...report, response_ms: Number((Number(process.hrtime.bigint() - request.startedAt) / 1e6).toFixed(3)) };
    },
  );
};
