import { PassThrough } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { Entry } from '../../wire/request-log-entry-schema.js';
import { ReplayAnswer, ReplayRequest } from '../../wire/replay-answer-schema.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { ReplayService } from '../../core/request-log/replay-service.js';
import type { RequestLog } from '../../core/request-log/request-log.js';

const KEEPALIVE_MS = 15_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * The console's request log: the last N requests, and a live SSE feed of new ones (Owner only); a
 * logged request replayed (its own key or an Owner).
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<{ requestLog: RequestLog; replay: ReplayService }> = async (
  app,
  { requestLog, replay },
) => {
  const openFeeds = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of [...openFeeds]) stop();
  });

  app.get(
    '/console/requests',
    {
      config: { auth: 'owner', unlogged: true },
      schema: {
        tags: ['console'],
        summary: 'Recent requests (Owner)',
        description: "Without the entries' spans: `GET /console/requests/{id}` has them.",
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })),
          key_prefix: Type.Optional(Type.String({ maxLength: 64 })),
          model: Type.Optional(Type.String({ maxLength: 200 })),
          status: Type.Optional(
            Type.String({
              pattern: '^([1-5]xx|[1-5][0-9][0-9])$',
              description: 'An exact status (404) or a class (4xx).',
            }),
          ),
          path: Type.Optional(Type.String({ maxLength: 200, description: 'A part of the path.' })),
          exclude_console: Type.Optional(Type.Boolean({ description: "Leave out the console's own calls." })),
          trace_id: Type.Optional(
            Type.String({ pattern: '^[0-9a-fA-F]{32}$', description: 'The requests of one OpenTelemetry trace.' }),
          ),
          sort: Type.Optional(
            Type.Union([Type.Literal('time_desc'), Type.Literal('latency_desc')], {
              default: 'time_desc',
              description: 'Newest first (the default) or slowest first.',
            }),
          ),
        }),
        response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Entry) }), ...errorResponses },
      },
    },
    async (request) => {
      const { limit, sort, ...filter } = request.query;
      return { object: 'list' as const, data: requestLog.recent(limit ?? 100, filter, sort) };
    },
  );

  app.get(
    '/console/requests/:id',
    {
      config: { auth: 'owner', unlogged: true },
      schema: {
        tags: ['console'],
        summary: 'One logged request (Owner)',
        params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
        response: { 200: Entry, ...errorResponses },
      },
    },
    async (request) => {
      const entry = await requestLog.detail(request.params.id);
      if (!entry)
        throw new GatewayError(
          404,
          'request_not_found',
          `No logged request with id ${request.params.id}: the log keeps the most recent requests only.`,
        );
      return entry;
    },
  );

  app.post(
    '/console/requests/:id/replay',
    {
      // Any key: the service answers 404 for a request another key made, unless the caller is an Owner.
      config: { auth: 'key', unlogged: true },
      // No body at all means no options, as `{}` does.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
      schema: {
        tags: ['console'],
        summary: 'Send a logged request again, to its model or another (the key that made it, or an Owner)',
        description:
          'The stored body goes through the whole gateway again as the calling key (billed, rate-limited, logged, traced); a streamed original is streamed and its frames put back together. 409 when the log did not keep the body or the request is not a JSON inference call.',
        params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
        body: ReplayRequest,
        response: { 200: ReplayAnswer, ...errorResponses },
      },
    },
    async (request, reply) =>
      replay.replay(request.params.id, ownerScope(request.apiKey), {
        ...(request.body.model !== undefined ? { model: request.body.model } : {}),
        signal: clientAbortSignal(reply),
      }),
  );

  app.get(
    '/console/requests/stream',
    {
      config: { auth: 'owner', unlogged: true },
      schema: { tags: ['console'], summary: 'Live feed of requests as server-sent events (Owner)' },
    },
    async (_request, reply) => {
      // Sent through Fastify (not hijacked) so the onSend hooks add X-Process-Time-Ms like on every response.
      const feed = new PassThrough();
      feed.write(': connected\n\n');
      // A console that stops reading is dropped rather than buffered for without end.
      const send = (text: string) => (feed.writableLength > MAX_BUFFERED_BYTES ? feed.destroy() : feed.write(text));
      const unsubscribe = requestLog.subscribe((entry) => send(`data: ${JSON.stringify(entry)}\n\n`));
      const keepalive = setInterval(() => send(': keepalive\n\n'), KEEPALIVE_MS);
      const stop = () => {
        openFeeds.delete(stop);
        clearInterval(keepalive);
        unsubscribe();
        feed.end();
      };
      openFeeds.add(stop);
      // Fastify destroys the stream when the client goes away.
      feed.once('close', stop);
      return reply
        .headers({
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        })
        .send(feed);
    },
  );
};
