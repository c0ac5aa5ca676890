import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** CORS is off unless origins are listed in server.cors_origins (`*` allows any origin). */
export async function registerCors(app: FastifyInstance, origins: string[]): Promise<void> {
  if (origins.length === 0) return;
  const anyOrigin = origins.includes('*');
  await app.register(cors, {
    origin: anyOrigin ? true : origins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'X-Request-ID', 'X-Switchyard-Client'],
    exposedHeaders: ['X-Request-ID', 'X-Process-Time-Ms', 'Retry-After', 'X-Request-Cost'],
    maxAge: 600,
  });
}
