import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import { parseRetryAfter } from '../../../src/providers/_shared/http/retry-after.js';
import { createOpenAiCompatibleProvider } from '../../../src/providers/openai-compatible/create-openai-compatible-provider.js';
import { reframeOpenAiStream } from '../../../src/providers/_shared/openai-wire/reframe-openai-stream.js';
import type { ChatRequest, ChatStreamEvent } from '../../../src/providers/contracts/chat.js';
import type { ProviderInstance, ProviderOptions } from '../../../src/providers/contracts/provider-instance.js';
import { chatReply } from '../../support/fake-upstream-replies.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';

const KEY = 'sk-provider-key';
// Generous, so a busy machine's late timers never time out a request meant to succeed; the tests of
// the timeouts themselves shorten the one they wait for.
const TIMEOUTS = { connect: 2_000, first_byte: 10_000, idle: 10_000 };
let upstream: FakeUpstream;
let provider: ProviderInstance;

function makeProvider(options: Partial<ProviderOptions> = {}): ProviderInstance {
  return createOpenAiCompatibleProvider({
    id: 'up',
    options: { type: 'openai', base_url: upstream.url, api_key: KEY, timeouts: TIMEOUTS, ...options },
    dataDir: '/nonexistent',
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
}

beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: KEY });
  provider = makeProvider();
});
afterEach(async () => {
  await provider.close();
  await upstream.close();
});

const request = (signal = new AbortController().signal): ChatRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: 'one two three four' }],
  signal,
});

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

async function drain(stream: AsyncIterable<ChatStreamEvent>, seen: ChatStreamEvent[] = []): Promise<void> {
  for await (const event of stream) seen.push(event);
}

describe('upstream status mapping', () => {
  it('maps 5xx to upstream, retryable, with the upstream status', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 503 }, times: 1 });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.upstreamStatus, error.retryable]).toEqual(['upstream', 503, true]);
    // `times: 1`: the next request goes through.
    await expect(provider.capabilities.chat!.chat(request())).resolves.toBeDefined();
  });

  it('maps 429 to rate_limited with the upstream Retry-After in seconds', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 429, headers: { 'retry-after': '7' } } });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.retryAfter]).toEqual(['rate_limited', 7]);
    const refusedStream = await failure(provider.capabilities.chat!.chatStream(request()));
    expect([refusedStream.kind, refusedStream.retryAfter, refusedStream.upstreamStatus]).toEqual([
      'rate_limited',
      7,
      429,
    ]);
  });

  it('maps a refused provider key (401) to upstream_auth', async () => {
    await provider.close();
    provider = makeProvider({ api_key: 'sk-wrong' });
    const error = await failure(
      provider.capabilities.embeddings!.embed({ model: 'e', input: ['x'], signal: new AbortController().signal }),
    );
    expect([error.kind, error.upstreamStatus]).toEqual(['upstream_auth', 401]);
    expect(error.message).toContain('Incorrect API key provided');
  });

  it('maps 400 to invalid_request carrying the OpenAI error message and param', async () => {
    upstream.setBehaviour({
      failure: {
        type: 'status',
        status: 400,
        body: {
          error: {
            message: "'temperature' must be at most 2",
            type: 'invalid_request_error',
            param: 'temperature',
            code: 'invalid_value',
          },
        },
      },
    });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.message, error.param, error.code, error.retryable]).toEqual([
      'invalid_request',
      "'temperature' must be at most 2",
      'temperature',
      'invalid_value',
      false,
    ]);
  });

  it('maps 404 and 422 to invalid_request', async () => {
    upstream.setBehaviour({
      failure: { type: 'status', status: 404, body: { error: { message: 'The model `nope` does not exist' } } },
      times: 1,
    });
    expect((await failure(provider.capabilities.chat!.chat(request()))).message).toBe(
      'The model `nope` does not exist',
    );
    upstream.setBehaviour({
      failure: {
        type: 'status',
        status: 422,
        body: { detail: [{ loc: ['body', 'messages', 0, 'role'], msg: 'invalid role' }] },
      },
    });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.message, error.param]).toEqual([
      'invalid_request',
      'messages.0.role: invalid role',
      'messages.0.role',
    ]);
  });

  it('maps a body that is not JSON to upstream', async () => {
    upstream.setBehaviour({ failure: { type: 'malformed_body' } });
    expect((await failure(provider.capabilities.chat!.chat(request()))).kind).toBe('upstream');
    const stream = await provider.capabilities.chat!.chatStream(request());
    expect((await failure(drain(stream))).kind).toBe('upstream');
  });
});

describe('connection failures and timeouts', () => {
  it("maps connection refused to connection; the provider stays ready (health across requests is the circuit breaker's call)", async () => {
    const port = await freePort();
    await provider.close();
    provider = makeProvider({ base_url: `http://127.0.0.1:${port}/v1` });
    for (let i = 0; i < 3; i++) {
      const error = await failure(provider.capabilities.chat!.chat(request()));
      expect([error.kind, error.retryable]).toEqual(['connection', true]);
    }
    expect(provider.status().state).toBe('ready');
  });

  it('times out when the upstream never answers (first byte), with a retry hint', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    await provider.close();
    provider = makeProvider({ timeouts: { ...TIMEOUTS, first_byte: 300 } });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.retryAfter]).toEqual(['timeout', 5]);
  });

  it('times out when a stream goes idle mid-way, after the first events arrived', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream', afterFrames: 2 } });
    await provider.close();
    provider = makeProvider({ timeouts: { ...TIMEOUTS, idle: 300 } });
    const seen: ChatStreamEvent[] = [];
    const error = await failure(drain(await provider.capabilities.chat!.chatStream(request()), seen));
    expect(error.kind).toBe('timeout');
    expect(seen).toContainEqual({ type: 'delta', index: 0, content: 'one ' });
  });

  it('reports a connection cut mid-stream as a failure, never as a normal end', async () => {
    upstream.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 2 } });
    const seen: ChatStreamEvent[] = [];
    const error = await failure(drain(await provider.capabilities.chat!.chatStream(request()), seen));
    expect(['connection', 'upstream']).toContain(error.kind);
    expect(seen.some((event) => event.type === 'finish')).toBe(false);
  });

  it('streams to the end through slow chunks that stay within the idle timeout', async () => {
    // Eight parts 200 ms apart: 1.6 s in all, past the 1 s idle timeout, which each part restarts; each
    // gap leaves a late timer 800 ms.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 200 } });
    await provider.close();
    provider = makeProvider({ timeouts: { ...TIMEOUTS, idle: 1_000 } });
    const seen: ChatStreamEvent[] = [];
    await drain(await provider.capabilities.chat!.chatStream(request()), seen);
    expect(seen.at(-1)).toEqual({ type: 'usage', usage: { prompt_tokens: 5, completion_tokens: 4 } });
  });
});

describe('cancellation', () => {
  it('a client abort mid-stream cancels the upstream request at once', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream', afterFrames: 2 } });
    await provider.close();
    provider = makeProvider({ timeouts: { idle: 60_000, first_byte: 60_000 } });
    const controller = new AbortController();
    const stream = await provider.capabilities.chat!.chatStream(request(controller.signal));
    const iterator = stream[Symbol.asyncIterator]();
    // The two frames sent: the role, then the first word; the third never comes.
    expect((await iterator.next()).value).toEqual({ type: 'delta', index: 0, role: 'assistant' });
    expect((await iterator.next()).value).toEqual({ type: 'delta', index: 0, content: 'one ' });
    const pending = iterator.next().then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('aborted');
    await upstream.requests[0].settled;
    expect(upstream.requests[0].aborted).toBe(true);
  });

  it('an abort before the upstream answered cancels the request', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    await provider.close();
    provider = makeProvider({ timeouts: { first_byte: 60_000 } });
    const controller = new AbortController();
    const pending = provider.capabilities.chat!.chat(request(controller.signal));
    while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await failure(pending)).kind).toBe('aborted');
    await upstream.requests[0].settled;
    expect(upstream.requests[0].aborted).toBe(true);
  });

  it('a consumer that stops reading closes the upstream connection', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream', afterFrames: 2 } });
    const stream = await provider.capabilities.chat!.chatStream(request());
    for await (const event of stream) {
      if (event.type === 'delta') break;
    }
    await upstream.requests[0].settled;
    expect(upstream.requests[0].aborted).toBe(true);
  });
});

describe('a whole JSON answer (not streamed)', () => {
  it('is read whole when it arrives in parts', async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 20 } });
    const answer = await provider.capabilities.chat!.chat(request());
    expect(answer.choices[0].message.content).toBe('one two three four');
  });

  it('times out when the upstream stalls mid-body, saying so', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream' } });
    await provider.close();
    provider = makeProvider({ timeouts: { ...TIMEOUTS, idle: 300 } });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.retryAfter, error.message]).toEqual([
      'timeout',
      5,
      'Upstream provider "up" stopped sending data mid-response.',
    ]);
  });

  it('reports a connection cut mid-body as a failure', async () => {
    upstream.setBehaviour({ failure: { type: 'cut_mid_stream' } });
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect(['connection', 'upstream']).toContain(error.kind);
  });

  it('an abort after the headers, mid-body, cancels the upstream request', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream' } });
    await provider.close();
    provider = makeProvider({ timeouts: { idle: 60_000, first_byte: 60_000 } });
    const controller = new AbortController();
    const pending = provider.capabilities.chat!.chat(request(controller.signal));
    while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect((await failure(pending)).kind).toBe('aborted');
    await upstream.requests[0].settled;
    expect(upstream.requests[0].aborted).toBe(true);
  });
});

describe('answers from a raw upstream', () => {
  const answerText = (answer: unknown) =>
    (answer as { choices: { message: { content: string } }[] }).choices[0].message.content;

  let raw: { url: string; close: () => Promise<void> };
  let handle: (req: IncomingMessage, res: ServerResponse) => void;

  beforeEach(async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => handle(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    raw = {
      url: `http://127.0.0.1:${port}/v1`,
      close: () =>
        new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
    await provider.close();
    provider = makeProvider({ base_url: raw.url });
  });
  afterEach(() => raw.close());

  const okBody = JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  });

  it('reads an answer that starts with a byte order mark, with or without a length', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`\uFEFF${okBody}`);
    };
    expect(answerText(await provider.capabilities.chat!.chat(request()))).toBe('hi');
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.write('\uFEFF');
      res.end(okBody);
    };
    expect(answerText(await provider.capabilities.chat!.chat(request()))).toBe('hi');
  });

  it('reads the answer after an informational one (103 Early Hints), whole or streamed', async () => {
    handle = (_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(okBody);
    };
    expect(answerText(await provider.capabilities.chat!.chat(request()))).toBe('hi');
    handle = (_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
      );
    };
    const seen: ChatStreamEvent[] = [];
    await drain(await provider.capabilities.chat!.chatStream(request()), seen);
    expect(seen).toContainEqual({ type: 'delta', index: 0, content: 'hi' });
  });

  it('maps an error answer with a huge body from its start, and the next request still works', async () => {
    handle = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.write('bad gateway upstream of upstream ');
      // 4 MiB: far past what is read of an error answer; the socket closes under it.
      res.end('x'.repeat(4 * 1024 * 1024));
    };
    for (const refused of [
      provider.capabilities.chat!.chat(request()),
      provider.capabilities.chat!.chatStream(request()),
    ]) {
      const error = await failure(refused);
      expect([error.kind, error.upstreamStatus]).toEqual(['upstream', 502]);
      expect(error.message).toContain('(HTTP 502): bad gateway upstream of upstream x');
      expect(error.message.length).toBeLessThan(2_000);
    }
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(okBody);
    };
    expect(answerText(await provider.capabilities.chat!.chat(request()))).toBe('hi');
  });

  it('a stream read slowly holds the upstream back instead of buffering it, and then delivers all of it', async () => {
    const content = 'x'.repeat(1_000);
    const frame = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const frames = 24_000; // about 26 MB: far more than loopback's socket buffers hold
    let sent = 0;
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const more = (): void => {
        while (i < frames && !res.destroyed) {
          i++;
          sent += frame.length;
          if (!res.write(frame)) return void res.once('drain', more);
        }
        res.end(
          'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
        );
      };
      more();
    };
    const stream = await provider.capabilities.chat!.chatStream(request());
    const iterator = stream[Symbol.asyncIterator]();
    const seen: ChatStreamEvent[] = [(await iterator.next()).value as ChatStreamEvent];
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sentWhilePaused = sent;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent).toBe(sentWhilePaused);
    expect(sent).toBeLessThan((frames * frame.length) / 2);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) seen.push(next.value);
    const text = seen.map((event) => (event.type === 'delta' ? (event.content ?? '') : '')).join('');
    expect(text.length).toBe(frames * content.length);
    expect(seen).toContainEqual({ type: 'finish', index: 0, finish_reason: 'stop' });
  });

  it('refuses an answer past 64 MiB instead of holding it', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = (): void => {
        while (sent < 70 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (sent = 70));
      more();
    };
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.message]).toEqual(['upstream', 'Upstream provider "up" sent more than 67108864 bytes.']);
  });

  it('refuses an answer that declares more than 64 MiB before reading it', async () => {
    let aborted = false;
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
      res.write('{"id": "');
      res.on('close', () => (aborted = !res.writableFinished));
    };
    const error = await failure(provider.capabilities.chat!.chat(request()));
    expect([error.kind, error.message]).toEqual(['upstream', 'Upstream provider "up" sent more than 67108864 bytes.']);
    await vi.waitFor(() => expect(aborted).toBe(true));
  });
});

describe('stream re-framing', () => {
  const sseOf = (frames: unknown[]): string =>
    [...frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`), 'data: [DONE]\n\n'].join('');
  const options = {
    usage: true,
    verboseJson: true,
    images: 'b64_json' as const,
    models: [],
    origin: '',
    storeFile: () => {},
  };

  async function reframe(parts: Uint8Array[], choices?: number): Promise<unknown[]> {
    async function* body(): AsyncGenerator<Uint8Array> {
      yield* parts;
    }
    const events: unknown[] = [];
    const delta = (choice: Record<string, unknown>, index: number) => ({
      event: { index, delta: choice.delta },
      text: '',
    });
    for await (const event of reframeOpenAiStream(body(), { providerName: 'p', promptTokens: 1, choices, delta }))
      events.push(event);
    return events;
  }

  it('gives the same events whatever the chunk size', async () => {
    const reply = chatReply(
      {
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'héllo wörld, call f' }],
        tools: [{ type: 'function', function: { name: 'f' } }],
      },
      options,
    );
    if (reply.kind !== 'sse') throw new Error('expected a stream');
    const bytes = new TextEncoder().encode(sseOf(reply.frames));
    const whole = await reframe([bytes]);
    expect(whole.length).toBeGreaterThan(4);
    for (const size of [1, 2, 3, 7, 64]) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
      expect(await reframe(parts)).toEqual(whole);
    }
  });

  it('turns an upstream error frame mid-stream into a ProviderError', async () => {
    const text =
      'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"model overloaded"}}\n\n';
    const error = await failure(reframe([new TextEncoder().encode(text)]));
    expect([error.kind, error.message]).toEqual(['upstream', 'p failed mid-stream: model overloaded']);
  });

  it('treats a stream that ends without [DONE] or any finish as truncated', async () => {
    const text = 'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n';
    expect((await failure(reframe([new TextEncoder().encode(text)]))).code).toBe('upstream_stream_truncated');
  });

  it('treats a stream of n choices that ends without [DONE] before each finished as truncated', async () => {
    const frame = (index: number, finish: string | null) =>
      `data: {"choices":[{"index":${index},"delta":{"content":"a"},"finish_reason":${JSON.stringify(finish)}}]}\n\n`;
    const bytes = (text: string) => [new TextEncoder().encode(text)];
    const oneFinished = frame(0, 'stop') + frame(1, null);
    expect((await failure(reframe(bytes(oneFinished), 2))).code).toBe('upstream_stream_truncated');
    expect(await reframe(bytes(oneFinished + frame(1, 'stop')), 2)).toHaveLength(6);
    expect(await reframe(bytes(`${oneFinished}data: [DONE]\n\n`), 2)).toHaveLength(4);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter({ 'retry-after': '12' }, now)).toBe(12);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, now)).toBe(30);
    expect(parseRetryAfter({ 'retry-after-ms': '1500' }, now)).toBe(2);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
