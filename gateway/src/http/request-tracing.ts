import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { GatewayTracing } from '../core/tracing/gateway-tracing.js';
import type { TraceSpan } from '../core/tracing/request-trace.js';
import type { SpanAttributes } from '../providers/contracts/stage-tracer.js';
import type { RecordedSpan } from '../wire/request-log-entry-schema.js';
import { routeOf } from './request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span: the root of its spans within the gateway. */
    traceSpan: TraceSpan | null;
  }
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Quick stages shorter than this that succeed leave no span (see `recordQuickStage`). */
const MIN_QUICK_STAGE_MS = 1;

/**
 * A stage that usually takes microseconds (authentication and limits, the spend reservation),
 * recorded as a span under the server span only when it failed or took at least MIN_QUICK_STAGE_MS
 * (a rate limiter or team mode's Redis): the plain path stays at a few spans.
 */
export function recordQuickStage(request: FastifyRequest, name: string, startedAt: number, error?: unknown): void {
  const server = request.traceSpan;
  if (!server || (!error && performance.now() - startedAt < MIN_QUICK_STAGE_MS)) return;
  const span = server.trace.start(name, server, {}, 'internal', startedAt);
  if (request.apiKey) span.set('switchyard.key.id', request.apiKey.id);
  if (error) span.fail(error);
  span.end();
}

/** A span under the request's server span (for the hooks, which run outside the handler's context). */
export function startRequestStage(request: FastifyRequest, name: string): TraceSpan | undefined {
  const server = request.traceSpan;
  return server ? server.trace.start(name, server) : undefined;
}

/** `gen_ai.response.id` on the request's GenAI span: the id of the answer its client gets. */
export function noteResponseId(request: FastifyRequest, id: string): void {
  request.traceSpan?.trace.operation?.set('gen_ai.response.id', id);
}

/**
 * Every request is a trace: its server span starts when it arrives (continuing the client's
 * `traceparent`, whose id the response's `traceparent` header names), and each route's handler runs
 * with that span as the parent of the spans core and the providers start.
 */
export function registerRequestTracing(app: FastifyInstance, tracing: GatewayTracing): void {
  app.decorateRequest('traceSpan', null);
  app.addHook('onRequest', (request, reply, done) => {
    const route = routeOf(request).url;
    const attributes: SpanAttributes = { 'http.request.method': request.method };
    if (route) attributes['http.route'] = route;
    // The HTTP server span's required url.path and url.scheme (the query is left out: it may hold a key).
    const query = request.url.indexOf('?');
    attributes['url.path'] = query < 0 ? request.url : request.url.slice(0, query);
    attributes['url.scheme'] = request.protocol;
    attributes['switchyard.request.id'] = request.id;
    const span = tracing.startRequest(
      route ? `${request.method} ${route}` : request.method,
      attributes,
      headerValue(request, 'traceparent'),
      headerValue(request, 'tracestate'),
    );
    request.traceSpan = span;
    reply.header('traceparent', span.traceparent);
    done();
  });
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return tracing.within(request.traceSpan ?? undefined, () => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
  // Requests kept out of the log (health checks, the console's feeds) end their trace here.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.traceSpan && !request.traceSpan.ended) endRequestTrace(request, reply.statusCode);
    done();
  });
}

/** What the request log keeps of a request's trace. */
export interface RecordedTrace {
  trace_id: string;
  spans: RecordedSpan[];
  guardrail_flags?: string[];
}

/**
 * Ends the request's trace when it is over: the GenAI span gets the usage the request was billed
 * for, the server span its status, key id and cost. Returns the finished spans for the log.
 */
export function endRequestTrace(request: FastifyRequest, status: number): RecordedTrace | undefined {
  const server = request.traceSpan;
  if (!server) return undefined;
  const { trace } = server;
  const usage = request.recorded?.usage;
  const operation = trace.operation;
  if (operation && !operation.ended) {
    if (usage) {
      operation.set('gen_ai.usage.input_tokens', usage.prompt_tokens);
      operation.set('gen_ai.usage.output_tokens', usage.completion_tokens);
    }
    if (status >= 400 && operation.status !== 'error') operation.fail(new Error(`status ${status}`));
    operation.end();
  }
  server.set('http.response.status_code', status);
  if (request.apiKey) server.set('switchyard.key.id', request.apiKey.id);
  if (usage) server.set('switchyard.cost', usage.cost);
  if (status >= 500) {
    server.failWithType(String(status));
  }
  if (trace.dropped > 0) server.set('switchyard.spans.dropped', trace.dropped);
  server.end();
  const recorded: RecordedTrace = { trace_id: trace.traceId, spans: trace.spans };
  if (trace.guardrails.length > 0) recorded.guardrail_flags = trace.guardrails;
  return recorded;
}
