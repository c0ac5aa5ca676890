import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { GatewayStatus } from '../../core/status/gateway-status.js';

const Liveness = Type.Object({ status: Type.Literal('ok') });

const Readiness = Type.Object({
  status: Type.Union([
    Type.Literal('ready'),
    Type.Literal('starting'),
    Type.Literal('unavailable'),
    Type.Literal('draining', { description: 'stopping (SIGTERM): in-flight requests finish, send new ones elsewhere' }),
  ]),
  checks: Type.Object({
    database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
    engines: Type.Union([Type.Literal('ok'), Type.Literal('starting')], {
      description: 'starting while engines that warm at start are loading',
    }),
    redis: Type.Optional(
      Type.Union([Type.Literal('ok'), Type.Literal('unreachable')], {
        description:
          'Team mode only. Unreachable does not make the instance unready (every instance shares the Redis): rate-limited and paid requests get 503 until it is back.',
      }),
    ),
  }),
  warming_engines: Type.Array(Type.String(), { description: 'Providers still warming up' }),
});

const probe = { config: { auth: 'none' as const, unlogged: true }, security: [] };

/** Probes for supervisors and load balancers: no key, not in the request log. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ status: GatewayStatus }> = async (app, { status }) => {
  app.get(
    '/health/liveness',
    {
      config: probe.config,
      schema: {
        tags: ['status'],
        summary: 'Liveness: 200 while the process serves HTTP',
        security: probe.security,
        response: { 200: Liveness },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/readiness',
    {
      config: probe.config,
      schema: {
        tags: ['status'],
        summary:
          'Readiness: 200 once the database answers and the engines are warm; 503 with Retry-After before, and while draining on SIGTERM',
        security: probe.security,
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const { retryAfterSeconds, ...readiness } = await status.readiness();
      if (retryAfterSeconds !== undefined) reply.status(503).header('Retry-After', String(retryAfterSeconds));
      return readiness;
    },
  );
};
