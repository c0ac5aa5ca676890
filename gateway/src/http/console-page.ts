import fastifyStatic from '@fastify/static';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';

/**
 * The console's Content-Security-Policy: its own scripts and styles only (no inline script, no
 * eval), API calls to its own origin, images from itself, data: (OCR page renders, inline results)
 * and blob: (gateway files fetched with the key), audio from blob: (recordings), no plugins, no
 * framing, no <base> tricks.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const consolePolicy: onRequestHookHandler = (_request, reply, done) => {
  reply.header('Content-Security-Policy', CONSOLE_CSP);
  done();
};

/**
 * The built console at /ui/ (unknown /ui/* paths get index.html, for client-side routes), a
 * redirect from /, and the console's icon at /favicon.ico too: browsers ask for it on their own,
 * and without it every visit added an unauthenticated 401 to the request log. Without a build,
 * /ui/ says how to make one.
 */
export async function registerConsolePage(app: FastifyInstance, consoleDir: string | undefined): Promise<void> {
  // The policy as a hook of the console's own routes: a global hook would run on every API call too.
  markPublic(app, '/ui', consolePolicy);
  const config = { auth: 'none' as const, unlogged: true };
  app.get('/', { config, schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/'));
  if (!consoleDir) {
    app.get('/ui/*', { config, schema: { hide: true } }, async () => {
      throw new GatewayError(
        404,
        'console_not_built',
        'The console is not built: run `npm run build` (npm run serve does it for you).',
      );
    });
    app.get('/favicon.ico', { config, schema: { hide: true } }, async (_request, reply) => reply.code(204).send());
    return;
  }
  await app.register(fastifyStatic, {
    root: consoleDir,
    prefix: '/ui/',
    wildcard: false,
    index: ['index.html'],
    decorateReply: true,
  });
  app.get('/ui/*', { config, schema: { hide: true } }, async (_request, reply) => reply.sendFile('index.html'));
  app.get('/ui', { config, schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/'));
  // An SVG under the .ico name: browsers go by the Content-Type, which sendFile takes from the file.
  app.get('/favicon.ico', { config, schema: { hide: true } }, async (_request, reply) =>
    reply.sendFile('favicon.svg', { maxAge: '1d' }),
  );
}

/**
 * Routes that plugins register under `prefix` (static files, docs) need no key and stay out of the
 * logs; `onRequest`, if given, is added to those routes' own hooks.
 */
export function markPublic(app: FastifyInstance, prefix: string, onRequest?: onRequestHookHandler): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== prefix && !route.url.startsWith(`${prefix}/`)) return;
    route.config = { ...route.config, auth: 'none', unlogged: true };
    if (onRequest) route.onRequest = [...[route.onRequest ?? []].flat(), onRequest];
  });
}
