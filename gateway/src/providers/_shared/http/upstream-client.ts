import { Agent, type Dispatcher, type FormData } from 'undici';
import { ProviderError } from '../provider-error.js';
import type { EngineStatus, ProviderContext } from '../../contracts/provider-instance.js';
import { providerErrorFromFailure, type ExchangePhase } from './provider-error-from-failure.js';
import { providerErrorFromStatus } from './provider-error-from-status.js';

export const DEFAULT_TIMEOUTS = { connect: 10_000, first_byte: 60_000, idle: 60_000 } as const;

/** JSON bodies can be big (embeddings of many inputs, base64 images); past this it is not an API answer. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;
const MAX_CACHED_TARGETS = 64;

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

  constructor(context: Pick<ProviderContext, 'id' | 'options'>) {
    const { base_url: baseUrl, api_key: apiKey, timeouts = {} } = context.options;
    if (!baseUrl) throw new Error(`Provider "${context.id}" needs a base_url (for example http://127.0.0.1:8000/v1).`);
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.apiKey = apiKey || undefined;
    this.name = `Upstream provider "${context.id}"`;
    this.agent = new Agent({
      connect: { timeout: timeouts.connect ?? DEFAULT_TIMEOUTS.connect },
      headersTimeout: timeouts.first_byte ?? DEFAULT_TIMEOUTS.first_byte,
      bodyTimeout: timeouts.idle ?? DEFAULT_TIMEOUTS.idle,
      keepAliveTimeout: 30_000,
    });
  }

  /** POSTs and returns the parsed JSON answer. */
  async postJson(req: UpstreamRequest): Promise<unknown> {
    const response = await this.send(req, 'application/json');
    const text = await this.jsonText(response, req.signal);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ProviderError('upstream', `${this.name} sent a response that is not JSON.`, { upstreamStatus: response.statusCode, cause: error });
    }
  }

  /** POSTs and returns the response body as it arrives; failures while reading are ProviderErrors too. */
  async postStream(req: UpstreamRequest): Promise<AsyncIterable<Uint8Array>> {
    const response = await this.send(req, 'text/event-stream');
    return this.guardBody(response.body, req.signal);
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

  private send(req: UpstreamRequest, accept: string): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = { accept, 'user-agent': 'switchyard' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let body: string | FormData;
    if ('json' in req.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body.json);
    } else {
      body = req.body.form;
    }
    return this.exchange(this.target(req.path), { method: 'POST', headers, body, signal: req.signal });
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

  /** One request; resolves with a 2xx response, otherwise throws the mapped error. */
  private async exchange(
    target: { origin: string; path: string },
    options: { method: 'POST'; headers: Record<string, string>; body?: string | FormData; signal: AbortSignal },
  ): Promise<Dispatcher.ResponseData> {
    if (options.signal.aborted) throw new ProviderError('aborted', 'The request was cancelled by the client.');
    let response: Dispatcher.ResponseData;
    try {
      response = await this.agent.request({ ...options, ...target });
    } catch (error) {
      throw this.failed(error, options.signal, 'headers');
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response;
    const text = await this.readAll(response, options.signal, MAX_ERROR_BYTES, true).then(
      (bytes) => bytes.toString('utf8'),
      () => '',
    );
    throw providerErrorFromStatus(this.name, response.statusCode, response.headers, text);
  }

  /**
   * The answer's text. With a declared length under the cap undici reads it whole (HTTP framing stops
   * it there), without an async iteration per chunk; otherwise chunk by chunk, refused past the cap.
   */
  private async jsonText(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<string> {
    const declared = Number(response.headers['content-length']);
    if (!(declared <= MAX_JSON_BYTES)) return (await this.readAll(response, signal, MAX_JSON_BYTES)).toString('utf8');
    try {
      return await response.body.text();
    } catch (error) {
      throw this.failed(error, signal, 'body');
    }
  }

  private async readAll(response: Dispatcher.ResponseData, signal: AbortSignal, maxBytes: number, truncate = false): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.guardBody(response.body, signal)) {
      const room = maxBytes - size;
      if (chunk.byteLength > room) {
        if (truncate) {
          chunks.push(Buffer.from(chunk.subarray(0, room)));
          break;
        }
        throw new ProviderError('upstream', `${this.name} sent more than ${maxBytes} bytes.`, { upstreamStatus: response.statusCode });
      }
      chunks.push(Buffer.from(chunk));
      size += chunk.byteLength;
    }
    return Buffer.concat(chunks);
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
