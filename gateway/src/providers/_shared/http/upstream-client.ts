import { Agent, type Dispatcher, type FormData } from 'undici';
import { ProviderError } from '../provider-error.js';
import type { EngineStatus, ProviderContext } from '../../contracts/provider-instance.js';
import type { StageSpan, StageTracer } from '../../contracts/stage-tracer.js';
import type { AnswerRules } from './answer-handler.js';
import { dispatchBuffered } from './buffered-answer.js';
import { providerErrorFromFailure } from './provider-error-from-failure.js';
import { providerErrorFromStatus } from './provider-error-from-status.js';
import { dispatchStreamed } from './streamed-answer.js';

export const DEFAULT_TIMEOUTS = { connect: 10_000, first_byte: 60_000, idle: 60_000 } as const;

/** JSON bodies can be big (embeddings of many inputs, base64 images); past this it is not an API answer. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;
const MAX_CACHED_TARGETS = 64;
const BYTE_ORDER_MARK = 0xfeff;

export type UpstreamBody = { json: unknown } | { form: FormData };

export interface UpstreamRequest {
  /** Path below the base URL (`/chat/completions`). */
  path: string;
  body: UpstreamBody;
  signal: AbortSignal;
}

/**
 * The HTTP side of one upstream provider: one keep-alive undici pool, the provider's own key as
 * `Authorization: Bearer` and nothing from the gateway's client, connect / first-byte / idle
 * timeouts, the caller's AbortSignal cancelling the exchange at once, and every failure turned
 * into a `ProviderError`. Answers are read by undici dispatch handlers (`AnswerHandler`), without
 * `request()`'s body stream.
 */
export class UpstreamClient {
  private readonly agent: Agent;
  private readonly baseUrl: string;
  /** Origin and path of each request path below the base URL, parsed once (a provider uses a handful). */
  private readonly targets = new Map<string, { origin: string; path: string; full: string }>();
  private readonly apiKey: string | undefined;
  readonly name: string;
  private readonly rules: AnswerRules;
  private readonly tracer: StageTracer | undefined;
  /** The HTTP client span's fixed attributes (OpenTelemetry's HTTP conventions). */
  private readonly server: { address: string; port: number };

  constructor(context: Pick<ProviderContext, 'id' | 'options' | 'tracer'>) {
    const { base_url: baseUrl, api_key: apiKey, timeouts = {} } = context.options;
    if (!baseUrl) throw new Error(`Provider "${context.id}" needs a base_url (for example http://127.0.0.1:8000/v1).`);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.apiKey = apiKey || undefined;
    this.name = `Upstream provider "${context.id}"`;
    this.tracer = context.tracer;
    const base = new URL(this.baseUrl);
    this.server = {
      address: base.hostname.replace(/^\[|\]$/g, ''),
      port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
    };
    const name = this.name;
    this.rules = {
      maxBytes: MAX_JSON_BYTES,
      tooLarge: (status) =>
        new ProviderError('upstream', `${name} sent more than ${MAX_JSON_BYTES} bytes.`, { upstreamStatus: status }),
      maxErrorBytes: MAX_ERROR_BYTES,
      refused: (status, headers, text) => providerErrorFromStatus(name, status, headers, text),
      failed: (error, signal, phase) => providerErrorFromFailure(name, error, signal, phase),
    };
    this.agent = new Agent({
      connect: { timeout: timeouts.connect ?? DEFAULT_TIMEOUTS.connect },
      headersTimeout: timeouts.first_byte ?? DEFAULT_TIMEOUTS.first_byte,
      bodyTimeout: timeouts.idle ?? DEFAULT_TIMEOUTS.idle,
      keepAliveTimeout: 30_000,
    });
  }

  /** POSTs and returns the parsed JSON answer. */
  async postJson(req: UpstreamRequest): Promise<unknown> {
    refuseIfAborted(req.signal);
    const span = this.startSpan(req);
    let answer: { statusCode: number; body: Buffer };
    try {
      answer = await dispatchBuffered(
        this.agent,
        this.dispatchOptions(req, 'application/json', span),
        req.signal,
        this.rules,
      );
    } catch (error) {
      endSpan(span, 0, error);
      throw error;
    }
    const { statusCode, body } = answer;
    endSpan(span, statusCode);
    const text = body.toString('utf8');
    try {
      return JSON.parse(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
    } catch (error) {
      throw new ProviderError('upstream', `${this.name} sent a response that is not JSON.`, {
        upstreamStatus: statusCode,
        cause: error,
      });
    }
  }

  /** POSTs and returns the response body as it arrives; failures while reading are ProviderErrors too. */
  async postStream(req: UpstreamRequest): Promise<AsyncIterable<Uint8Array>> {
    refuseIfAborted(req.signal);
    const span = this.startSpan(req);
    return dispatchStreamed(
      this.agent,
      this.dispatchOptions(req, 'text/event-stream', span),
      req.signal,
      this.rules,
      span && ((statusCode, error) => endSpan(span, statusCode, error)),
    );
  }

  /** The scheme, host and port of the base URL: where this provider's own files live. */
  get origin(): string {
    return new URL(this.baseUrl).origin;
  }

  /** Always ready: whether the upstream is healthy is the circuit breaker's call, in core, across requests. */
  status(): EngineStatus {
    return { state: 'ready' };
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** The upstream call's client span; its `traceparent` goes with the request, so a provider that traces continues the trace. */
  private startSpan(req: UpstreamRequest): StageSpan | undefined {
    return this.tracer?.start(
      'POST',
      {
        'http.request.method': 'POST',
        'server.address': this.server.address,
        'server.port': this.server.port,
        'url.full': this.target(req.path).full,
      },
      'client',
    );
  }

  private dispatchOptions(
    req: UpstreamRequest,
    accept: string,
    span: StageSpan | undefined,
  ): Dispatcher.DispatchOptions {
    const headers: Record<string, string> = { accept, 'user-agent': 'switchyard' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (span) {
      headers.traceparent = span.traceparent;
      const tracestate = span.tracestate;
      if (tracestate) headers.tracestate = tracestate;
    }
    const { origin, path } = this.target(req.path);
    if ('json' in req.body) {
      headers['content-type'] = 'application/json';
      return { method: 'POST', origin, path, headers, body: JSON.stringify(req.body.json) };
    }
    return { method: 'POST', origin, path, headers, body: req.body.form };
  }

  /** What undici's `request(url)` parses the URL into, kept per path instead of parsed on every request. */
  private target(path: string): { origin: string; path: string; full: string } {
    let target = this.targets.get(path);
    if (!target) {
      const url = new URL(`${this.baseUrl}${path}`);
      target = { origin: url.origin, path: `${url.pathname}${url.search}`, full: spanUrl(url) };
      if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
      this.targets.set(path, target);
    }
    return target;
  }
}

/**
 * The upstream URL as the HTTP conventions' `url.full`, with no credentials: the origin leaves out a
 * user and password, and a query's values (an API key, a signature) are written as REDACTED.
 */
function spanUrl(url: URL): string {
  const names = [...url.searchParams.keys()];
  const query = names.length > 0 ? `?${names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&')}` : '';
  return `${url.origin}${url.pathname}${query}`;
}

function endSpan(span: StageSpan | undefined, statusCode: number, error?: unknown): void {
  if (!span) return;
  const status = statusCode || (error instanceof ProviderError ? error.upstreamStatus : undefined);
  if (status) span.set('http.response.status_code', status);
  if (error) span.fail(error);
  span.end();
}

function refuseIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ProviderError('aborted', 'The request was cancelled by the client.');
}
