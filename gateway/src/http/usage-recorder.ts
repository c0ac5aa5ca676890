import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { boundedJsonText } from '../core/json/bounded-json-text.js';
import { CONSOLE_CLIENT, redactBody, redactHeaders } from '../core/request-log/request-log.js';
import { elapsedMs } from './request-context.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Bills and logs a streamed answer whose frames are all written, before its last frame (`[DONE]`)
     * leaves: resolves once its ledger entry is committed, so a client that read the end of a stream
     * finds it billed even if the process dies right after.
     */
    recordStreamEnd(request: FastifyRequest, status: number): Promise<void>;
  }
}

/** The status the request log shows for a client that closed the connection before the answer was complete (nginx's). */
export const CLIENT_CLOSED_REQUEST = 499;

const responseBodies = new WeakMap<FastifyRequest, string>();

/** More than the request log keeps of a body (4 KiB), so it still says the body was cut. */
const LOGGED_REQUEST_CHARS = 8192;

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** The model a request named, for rows that failed before the route reported usage. */
function requestedModel(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const model = (body as { model?: unknown }).model;
  return typeof model === 'string' && model ? model.slice(0, 200) : null;
}

/** The secrets the log must never show: the admin key, provider keys and the key this request presented. */
function knownSecrets(app: FastifyInstance, request: FastifyRequest): string[] {
  const { options, settings } = app.services;
  const presented = [headerValue(request, 'x-api-key'), headerValue(request, 'authorization')?.replace(/^Bearer\s+/i, '')];
  const providerKeys = [...options.providers.map((provider) => provider.api_key), ...settings.providerKeys()];
  return [options.adminKey, ...providerKeys, ...presented].filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
}

function requestBodyText(request: FastifyRequest): string | undefined {
  const body = request.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  return request.jsonText ?? boundedJsonText(body, LOGGED_REQUEST_CHARS);
}

/**
 * Bills each request once it is over (core/billing: the ledger entry and the reservation's
 * settlement) and writes the console's request log. A complete answer is
 * recorded as it is handed to the socket (onSend) and waits for its ledger entry's commit, so the entry
 * is on disk before the client can read the answer; a stream is recorded when it ends. A client that disconnects first (mid-stream, or while a long
 * answer is computed) is recorded when the connection closes, with status 499.
 */
export function registerUsageRecorder(app: FastifyInstance, keepBodies: () => boolean): void {
  const recorded = new WeakSet<FastifyRequest>();

  /** Resolves once the ledger entry is committed (at once for requests without a key). */
  const record = (request: FastifyRequest, status: number, secrets?: string[]): Promise<void> | undefined => {
    if (recorded.has(request)) return;
    recorded.add(request);
    if (request.routeOptions.config?.unlogged) {
      app.services.billing.release(request.billing);
      return;
    }
    const { billing, requestLog } = app.services;
    const latency = elapsedMs(request.startedAt);
    const client = headerValue(request, 'x-switchyard-client')?.slice(0, 40) ?? null;
    const { usage, committed } = billing.settle(request.billing, {
      id: request.id,
      key: request.apiKey,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0],
      status,
      latencyMs: latency,
      abandoned: status === CLIENT_CLOSED_REQUEST,
      fromConsole: client === CONSOLE_CLIENT,
    });
    const logSecrets = secrets ?? knownSecrets(app, request);
    const requestBody = keepBodies() ? requestBodyText(request) : undefined;
    const responseBody = keepBodies() ? responseBodies.get(request) : undefined;
    requestLog.add({
      id: request.id,
      time: Date.now(),
      method: request.method,
      path: request.url.split('?')[0],
      status,
      latency_ms: Math.round(latency * 100) / 100,
      key_prefix: request.apiKey?.prefix ?? null,
      model: usage?.model ?? requestedModel(request.body),
      prompt_tokens: usage ? usage.prompt_tokens : null,
      completion_tokens: usage ? usage.completion_tokens : null,
      cost: usage ? usage.cost : null,
      client,
      request_headers: redactHeaders(request.headers, logSecrets),
      ...(requestBody !== undefined ? { request_body: redactBody(requestBody, 4096, logSecrets) } : {}),
      ...(responseBody !== undefined ? { response_body: responseBody } : {}),
    });
    return committed;
  };

  app.decorate('recordStreamEnd', (request: FastifyRequest, status: number) => record(request, status) ?? Promise.resolve());

  app.addHook('onSend', (request, reply, payload, done) => {
    const complete = payload === null || payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload);
    const secrets = knownSecrets(app, request);
    if (keepBodies()) responseBodies.set(request, complete ? redactBody(payload?.toString() ?? '', 4096, secrets) : '[stream]');
    const committed = complete ? record(request, reply.statusCode, secrets) : undefined;
    if (committed) committed.then(() => done(null, payload), done);
    else done(null, payload);
  });

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    reply.raw.once('close', () => {
      // The ledger's commit never rejects (usage-ledger.ts); nothing waits for it here.
      if (!reply.raw.writableFinished) void record(request, CLIENT_CLOSED_REQUEST);
    });
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    void record(request, reply.statusCode);
    done();
  });
}
