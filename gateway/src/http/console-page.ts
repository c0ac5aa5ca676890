import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

/**
 * The built console at /ui/ (unknown /ui/* paths get index.html, for client-side routes) and a
 * redirect from /. Without a build, /ui/ says how to make one.
 */
export async function registerConsolePage(app: FastifyInstance, consoleDir: string | undefined): Promise<void> {
  markPublic(app, '/ui');
  const config = { auth: 'none' as const, unlogged: true };
  app.get('/', { config, schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/'));
  if (!consoleDir) {
    app.get('/ui/*', { config, schema: { hide: true } }, async () => {
      throw new GatewayError(404, 'console_not_built', 'The console is not built: run `npm run build` (npm run serve does it for you).');
    });
    return;
  }
  await app.register(fastifyStatic, { root: consoleDir, prefix: '/ui/', wildcard: false, index: ['index.html'], decorateReply: true });
  app.get('/ui/*', { config, schema: { hide: true } }, async (_request, reply) => reply.sendFile('index.html'));
  app.get('/ui', { config, schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/'));
}

/** Routes that plugins register under `prefix` (static files, docs) need no key and stay out of the logs. */
export function markPublic(app: FastifyInstance, prefix: string): void {
  app.addHook('onRoute', (route) => {
    if (route.url === prefix || route.url.startsWith(`${prefix}/`)) route.config = { ...route.config, auth: 'none', unlogged: true };
  });
}
