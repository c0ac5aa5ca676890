import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { boundedJsonText } from '../core/json/bounded-json-text.js';
import type { BillingService } from '../core/billing/billing-service.js';
import {
  CONSOLE_CLIENT,
  redactBody,
  redactHeaders,
  rememberedSecretNames,
  type RequestLog,
  type RequestLogEntry,
} from '../core/request-log/request-log.js';
import type { SettingsService } from '../core/settings/settings-service.js';
import { elapsedMs, routeOf } from './request-context.js';
import type { RequestFailure } from './fastify-augment.js';
import { endRequestTrace, startRequestStage } from './request-tracing.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Bills and logs a streamed answer whose frames are all written, before its last frame (`[DONE]`)
     * leaves: resolves once its ledger entry is committed, so a client that read the end of a stream
     * finds it billed even if the process dies right after.
     */
    recordStreamEnd(request: FastifyRequest, status: number): Promise<void>;
    /** A stream that failed after it started (its status already 200): its error frame's code and message, for the request log. */
    recordStreamFailure(request: FastifyRequest, failure: { code: string; message: string }): void;
  }
}

/** The status the request log shows for a client that closed the connection before the answer was complete (nginx's). */
export const CLIENT_CLOSED_REQUEST = 499;

const STREAM = '[stream]';

/** More than the request log keeps of a body (4 KiB), so it still says the body was cut. */
const LOGGED_REQUEST_CHARS = 8192;

/** Error bodies are the gateway's own few hundred bytes; a larger one is not read for its code and message. */
const MAX_ERROR_BODY_CHARS = 65_536;
/** What the request log keeps of an error message. */
export const MAX_LOGGED_ERROR_MESSAGE_CHARS = 1000;

/**
 * The code and message of an error answer, from the documented error shape (`{object:"error", message, code}`)
 * or OpenAI's `{error:{message, code}}`; nothing when the body is neither.
 */
function failureOf(payload: string | Buffer): RequestFailure | null {
  if (payload.length === 0 || payload.length > MAX_ERROR_BODY_CHARS) return null;
  let body: unknown;
  try {
    body = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return null;
  const nested = (body as { error?: unknown }).error;
  const error = (nested && typeof nested === 'object' ? nested : body) as { code?: unknown; message?: unknown };
  const code = typeof error.code === 'string' && error.code ? error.code.slice(0, 100) : null;
  const message = typeof error.message === 'string' && error.message ? error.message : null;
  return code || message ? { code, message } : null;
}

function isEventStream(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('text/event-stream');
}

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

/** What the recorder bills with, logs to, and keeps out of the log. */
export interface UsageRecorderServices {
  billing: BillingService;
  requestLog: RequestLog;
  /** The providers in effect, whose API keys the log must never show. */
  settings: Pick<SettingsService, 'providerKeys'>;
  /** Secrets fixed at start (the admin key, the config file's provider keys). */
  startSecrets: readonly (string | undefined)[];
  /** Whether request and response bodies are kept (server.request_log_bodies, live). */
  keepBodies: () => boolean;
}

/** The secrets the log must never show: the admin key, provider keys and the key a request presented. */
function secretsOf({ settings, startSecrets }: UsageRecorderServices): (request: FastifyRequest) => string[] {
  const configuredSecrets = new WeakMap<readonly string[], string[]>();
  return (request) => {
    // The configured ones are worked out again only when the providers in effect change.
    const providerKeys = settings.providerKeys();
    let configured = configuredSecrets.get(providerKeys);
    if (!configured) {
      configured = [...startSecrets, ...providerKeys].filter(
        (secret): secret is string => typeof secret === 'string' && secret.length > 0,
      );
      configuredSecrets.set(providerKeys, configured);
    }
    const secrets = [...configured];
    for (const presented of [
      headerValue(request, 'x-api-key'),
      headerValue(request, 'authorization')?.replace(/^Bearer\s+/i, ''),
    ])
      if (presented) secrets.push(presented);
    return secrets;
  };
}

function requestBodyText(request: FastifyRequest): string | undefined {
  const body = request.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  return request.jsonText ?? boundedJsonText(body, LOGGED_REQUEST_CHARS);
}

/**
 * Bills each request once it is over (core/billing: the ledger entry and the reservation's
 * settlement) and writes the console's request log. A complete answer is billed as it is handed to
 * the socket (onSend) and waits for its ledger entry (usage-ledger.ts), so the entry is kept before the
 * client can read the answer; its request-log entry (redacted headers and bodies) is built once the
 * answer has left (onResponse), off its path. A stream is recorded when it ends. A client that
 * disconnects first (mid-stream, or while a long answer is computed) is recorded when the connection
 * closes, with status 499.
 */
export function registerUsageRecorder(app: FastifyInstance, services: UsageRecorderServices): void {
  const { billing, requestLog, keepBodies } = services;
  const knownSecrets = secretsOf(services);
  const isSecret = rememberedSecretNames();
  app.decorateRequest('recorded', null);
  app.decorateRequest('responseBodyForLog', null);
  app.decorateRequest('failure', null);

  /** Bills the request once; resolves once its ledger entry is kept (at once for requests without a key). */
  const bill = (request: FastifyRequest, status: number): Promise<void> | undefined => {
    if (request.recorded) return;
    if (routeOf(request).config?.unlogged) {
      request.recorded = { status, usage: null, latency: 0, logDone: true };
      billing.release(request.billing);
      return;
    }
    const client = headerValue(request, 'x-switchyard-client');
    const latency = elapsedMs(request.startedAt);
    const span = startRequestStage(request, 'usage write');
    const { usage, committed } = billing.settle(request.billing, {
      id: request.id,
      key: request.apiKey,
      method: request.method,
      route: routeOf(request).url ?? request.url.split('?')[0],
      status,
      latencyMs: latency,
      abandoned: status === CLIENT_CLOSED_REQUEST,
      fromConsole: client === CONSOLE_CLIENT,
    });
    request.recorded = { status, usage, latency, logDone: false };
    if (!span) return committed;
    if (!committed) span.end();
    else void committed.then(() => span.end());
    return committed;
  };

  /** Writes the request's log entry (once, after it was billed). */
  const log = (request: FastifyRequest): void => {
    const outcome = request.recorded;
    if (!outcome || outcome.logDone) return;
    outcome.logDone = true;
    const { status, usage, latency } = outcome;
    const secrets = knownSecrets(request);
    const bodies = keepBodies();
    const requestBody = bodies ? requestBodyText(request) : undefined;
    const responseBody = bodies ? (request.responseBodyForLog ?? undefined) : undefined;
    const failure = request.failure;
    const trace = endRequestTrace(request, status);
    const entry: RequestLogEntry = {
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
      client: headerValue(request, 'x-switchyard-client')?.slice(0, 40) ?? null,
      request_headers: redactHeaders(request.headers, secrets, isSecret),
    };
    // The optional fields are assigned when present: spreading one small object per field into the literal cost more than the rest of the entry.
    if (request.apiKey) entry.key_id = request.apiKey.id;
    // A model's stream (one that was billed, not a download's progress) that sent content.
    if (request.firstTokenAt !== null && usage)
      entry.ttft_ms = Math.round(Number(request.firstTokenAt - request.startedAt) / 1e4) / 100;
    if (request.madeBill?.cache) entry.cache = request.madeBill.cache;
    if (requestBody !== undefined) entry.request_body = redactBody(requestBody, 4096, secrets, isSecret);
    if (responseBody !== undefined)
      entry.response_body =
        responseBody === STREAM ? STREAM : redactBody(responseBody.toString(), 4096, secrets, isSecret);
    // Kept whether or not bodies are: the gateway's own words on why the request failed (an upstream's may quote secrets).
    if (failure?.code) entry.error_code = failure.code;
    if (failure?.message)
      entry.error_message = redactBody(failure.message, MAX_LOGGED_ERROR_MESSAGE_CHARS, secrets, isSecret);
    if (trace) {
      entry.trace_id = trace.trace_id;
      if (trace.guardrail_flags) entry.guardrail_flags = trace.guardrail_flags;
    }
    // The log is the Owner's: requests without a valid key go apart and cannot evict the entries of keys.
    if (request.apiKey) requestLog.add(entry, trace?.spans);
    else {
      if (trace) entry.spans = trace.spans;
      requestLog.addKeyless(entry);
    }
  };

  const record = (request: FastifyRequest, status: number): Promise<void> | undefined => {
    const committed = bill(request, status);
    // After the usage write, so the entry's trace holds its span.
    if (committed) void committed.then(() => log(request));
    else log(request);
    return committed;
  };

  app.decorate(
    'recordStreamEnd',
    (request: FastifyRequest, status: number) => record(request, status) ?? Promise.resolve(),
  );
  app.decorate('recordStreamFailure', (request: FastifyRequest, failure: { code: string; message: string }) => {
    request.failure = failure;
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const complete =
      payload === null || payload === undefined || typeof payload === 'string' || Buffer.isBuffer(payload);
    // An event stream sent whole (a cache hit's replay) is logged as any stream is.
    if (keepBodies()) request.responseBodyForLog = complete && !isEventStream(reply) ? (payload ?? '') : STREAM;
    if (complete && payload && reply.statusCode >= 400) request.failure = failureOf(payload);
    const committed = complete ? bill(request, reply.statusCode) : undefined;
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
