import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_CLIENT, redactBody, redactHeaders } from '../core/request-log.js';
import { elapsedMs } from './request-context.js';

/** The status the request log shows for a client that closed the connection before the answer was complete (nginx's). */
export const CLIENT_CLOSED_REQUEST = 499;

const responseBodies = new WeakMap<FastifyRequest, string>();

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
  const { options } = app.services;
  const presented = [headerValue(request, 'x-api-key'), headerValue(request, 'authorization')?.replace(/^Bearer\s+/i, '')];
  const providerKeys = options.providers.map((provider) => provider.api_key);
  return [options.adminKey, ...providerKeys, ...presented].filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
}

function requestBodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * After every response: the usage ledger (authenticated requests) and the console's request log.
 * Fastify runs onResponse only when a response finishes; a client that disconnects first (mid-stream,
 * or while a long answer is computed) is recorded when the connection closes, with status 499.
 */
export function registerUsageRecorder(app: FastifyInstance, keepBodies: boolean): void {
  const recorded = new WeakSet<FastifyRequest>();

  const record = (request: FastifyRequest, status: number): void => {
    if (recorded.has(request) || request.routeOptions.config?.unlogged) return;
    recorded.add(request);
    const { ledger, requestLog } = app.services;
    const latency = elapsedMs(request.startedAt);
    // A stream the client left never got its final usage: bill what was produced until then.
    const usage = request.usage ?? (status === CLIENT_CLOSED_REQUEST ? (request.usageEstimate?.() ?? null) : null);
    const route = request.routeOptions.url ?? request.url.split('?')[0];
    const client = headerValue(request, 'x-switchyard-client')?.slice(0, 40) ?? null;
    // The console's own reads (model lists, account pages, polling) are not usage; its playground calls are.
    const consoleHousekeeping = client === CONSOLE_CLIENT && !usage;
    if (request.apiKey && !consoleHousekeeping) {
      ledger.record({
        time: Date.now(),
        request_id: request.id,
        key_id: request.apiKey.id,
        method: request.method,
        route,
        model: usage?.model ?? null,
        status,
        latency_ms: latency,
        prompt_tokens: usage?.prompt_tokens ?? 0,
        completion_tokens: usage?.completion_tokens ?? 0,
        cost: usage?.cost ?? 0,
      });
    }
    const secrets = knownSecrets(app, request);
    const requestBody = keepBodies ? requestBodyText(request.body) : undefined;
    const responseBody = keepBodies ? responseBodies.get(request) : undefined;
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
      request_headers: redactHeaders(request.headers, secrets),
      ...(requestBody !== undefined ? { request_body: redactBody(requestBody, 4096, secrets) } : {}),
      ...(responseBody !== undefined ? { response_body: responseBody } : {}),
    });
  };

  if (keepBodies) {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) responseBodies.set(request, redactBody(payload.toString(), 4096, knownSecrets(app, request)));
      else if (payload) responseBodies.set(request, '[stream]');
      return payload;
    });
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) record(request, CLIENT_CLOSED_REQUEST);
    });
  });
  app.addHook('onResponse', async (request, reply) => record(request, reply.statusCode));
}
