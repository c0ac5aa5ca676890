import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactBody } from '../core/request-log.js';
import { elapsedMs } from './request-context.js';

/** The status the request log shows for a client that closed the connection before the answer was complete (nginx's). */
export const CLIENT_CLOSED_REQUEST = 499;

const responseBodies = new WeakMap<FastifyRequest, string>();

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
    if (request.apiKey) {
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
      model: usage?.model ?? null,
      prompt_tokens: usage ? usage.prompt_tokens : null,
      completion_tokens: usage ? usage.completion_tokens : null,
      cost: usage ? usage.cost : null,
      ...(requestBody !== undefined ? { request_body: redactBody(requestBody) } : {}),
      ...(responseBody !== undefined ? { response_body: responseBody } : {}),
    });
  };

  if (keepBodies) {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) responseBodies.set(request, redactBody(payload.toString()));
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
