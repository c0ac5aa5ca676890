import { Agent, type Dispatcher, type FormData } from 'undici';
import { dispatchBuffered, type BufferedAnswer, type BufferedAnswerFailure, type BufferedAnswerLimits } from './buffered-answer.js';
import { ProviderError } from '../provider-error.js';
import type { EngineStatus, ProviderContext } from '../../contracts/provider-instance.js';
import { providerErrorFromFailure, type ExchangePhase } from './provider-error-from-failure.js';
import { providerErrorFromStatus } from './provider-error-from-status.js';

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
 * into a `ProviderError`.
 */
export class UpstreamClient {
  private readonly agent: Agent;
  private readonly baseUrl: string;
  /** Origin and path of each request path below the base URL, parsed once (a provider uses a handful). */
  private readonly targets = new Map<string, { origin: string; path: string }>();
  private readonly apiKey: string | undefined;
  readonly name: string;
  private readonly limits: BufferedAnswerLimits;

  constructor(context: Pick<ProviderContext, 'id' | 'options'>) {
    const { base_url: baseUrl, api_key: apiKey, timeouts = {} } = context.options;
    if (!baseUrl) throw new Error(`Provider "${context.id}" needs a base_url (for example http://127.0.0.1:8000/v1).`);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.apiKey = apiKey || undefined;
    this.name = `Upstream provider "${context.id}"`;
    this.limits = {
      okBytes: MAX_JSON_BYTES,
      errorBytes: MAX_ERROR_BYTES,
      tooLarge: (status) => new ProviderError('upstream', `${this.name} sent more than ${MAX_JSON_BYTES} bytes.`, { upstreamStatus: status }),
    };
    this.agent = new Agent({
      connect: { timeout: timeouts.connect ?? DEFAULT_TIMEOUTS.connect },
      headersTimeout: timeouts.first_byte ?? DEFAULT_TIMEOUTS.first_byte,
      bodyTimeout: timeouts.idle ?? DEFAULT_TIMEOUTS.idle,
      keepAliveTimeout: 30_000,
    });
  }

  /** POSTs and returns the parsed JSON answer, gathered whole by a dispatch handler (no body stream). */
  async postJson(req: UpstreamRequest): Promise<unknown> {
    refuseIfAborted(req.signal);
    let answer: BufferedAnswer;
    try {
      const options = { method: 'POST' as const, ...this.request(req, 'application/json'), ...this.target(req.path) };
      answer = await dispatchBuffered(this.agent, options, req.signal, this.limits);
    } catch (caught) {
      const { error, phase } = caught as BufferedAnswerFailure;
      throw this.failed(error, req.signal, phase);
    }
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      throw providerErrorFromStatus(this.name, answer.statusCode, answer.headers, answer.body.toString('utf8'));
    }
    const text = answer.body.toString('utf8');
    try {
      return JSON.parse(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
    } catch (error) {
      throw new ProviderError('upstream', `${this.name} sent a response that is not JSON.`, { upstreamStatus: answer.statusCode, cause: error });
    }
  }

  /** POSTs and returns the response body as it arrives; failures while reading are ProviderErrors too. */
  async postStream(req: UpstreamRequest): Promise<AsyncIterable<Uint8Array>> {
    refuseIfAborted(req.signal);
    let response: Dispatcher.ResponseData;
    try {
      response = await this.agent.request({ method: 'POST', ...this.request(req, 'text/event-stream'), ...this.target(req.path), signal: req.signal });
    } catch (error) {
      throw this.failed(error, req.signal, 'headers');
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return this.guardBody(response.body, req.signal);
    const text = await this.errorText(response, req.signal).catch(() => '');
    throw providerErrorFromStatus(this.name, response.statusCode, response.headers, text);
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

  private request(req: UpstreamRequest, accept: string): { headers: Record<string, string>; body: string | FormData } {
    const headers: Record<string, string> = { accept, 'user-agent': 'switchyard' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if ('json' in req.body) {
      headers['content-type'] = 'application/json';
      return { headers, body: JSON.stringify(req.body.json) };
    }
    return { headers, body: req.body.form };
  }

  /** What undici's `request(url)` parses the URL into, kept per path instead of parsed on every request. */
  private target(path: string): { origin: string; path: string } {
    let target = this.targets.get(path);
    if (!target) {
      const url = new URL(`${this.baseUrl}${path}`);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      if (this.targets.size >= MAX_CACHED_TARGETS) this.targets.clear();
      this.targets.set(path, target);
    }
    return target;
  }

  /** The start of an error answer's body: it says what went wrong; the rest is not read. */
  private async errorText(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.guardBody(response.body, signal)) {
      const room = MAX_ERROR_BYTES - size;
      chunks.push(Buffer.from(chunk.subarray(0, room)));
      size += Math.min(chunk.byteLength, room);
      if (size >= MAX_ERROR_BYTES) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Leaving the loop early (a consumer's `break`, an error) destroys the body, which closes the upstream connection. */
  private async *guardBody(body: Dispatcher.ResponseData['body'], signal: AbortSignal): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) yield chunk as Uint8Array;
    } catch (error) {
      throw this.failed(error, signal, 'body');
    } finally {
      if (!body.destroyed) body.destroy();
    }
  }

  private failed(error: unknown, signal: AbortSignal, phase: ExchangePhase): ProviderError {
    return providerErrorFromFailure(this.name, error, signal, phase);
  }
}

function refuseIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ProviderError('aborted', 'The request was cancelled by the client.');
}
