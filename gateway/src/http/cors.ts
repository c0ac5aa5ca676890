import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * CORS is off unless origins are listed (server.cors_origins, or the console's Settings; `*` allows
 * any origin). The list is read on every request, so a change applies without a restart.
 */
export async function registerCors(app: FastifyInstance, origins: () => string[]): Promise<void> {
  await app.register(cors, {
    origin: (origin, callback) => {
      const allowed = origins();
      callback(null, allowed.includes('*') || (origin !== undefined && allowed.includes(origin)));
    },
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'X-Request-ID', 'X-Switchyard-Client'],
    exposedHeaders: [
      'X-Request-ID',
      'X-Process-Time-Ms',
      'Retry-After',
      'X-Request-Cost',
      'X-Switchyard-Cache',
      'X-Switchyard-Cache-Similarity',
      'Age',
    ],
    maxAge: 600,
  });
}
