/**
 * A fake OpenAI-compatible (and Mistral OCR) upstream: a real HTTP server on 127.0.0.1, port 0,
 * speaking the real wire format, for provider, gateway HTTP and browser e2e tests.
 *
 *   const upstream = await startFakeUpstream({ apiKey: 'sk-test' });
 *   // upstream.url is the base including /v1, e.g. http://127.0.0.1:41234/v1
 *   upstream.setBehaviour({ failure: { type: 'status', status: 429, headers: { 'retry-after': '7' } }, times: 1 });
 *   ...
 *   upstream.requests[0].body;          // parsed JSON (or { fields, files } for multipart)
 *   await upstream.requests[0].settled; // resolves when the exchange is over
 *   upstream.requests[0].aborted;       // true if the client closed the connection before the end
 *   await upstream.close();
 *
 * Endpoints (under /v1): chat/completions (JSON or SSE `chat.completion.chunk` frames, a usage
 * chunk when `stream_options.include_usage`), completions, fim/completions (Mistral), embeddings
 * (floats, or base64 with `encoding_format: 'base64'`), models, images/generations (real PNGs of
 * the requested size, b64_json or url), audio/transcriptions (multipart; json, text, verbose_json,
 * srt, vtt), ocr (Mistral's shape; data URLs of PNG/JPEG/PDF) and responses (OpenAI's Responses API,
 * JSON or its typed event stream; see fake-upstream-responses.ts), moderations and classifications
 * (OpenAI's and Mistral's, fake-upstream-classifiers.ts).
 *
 * Deterministic answers: chat echoes the last user message word by word (`max_tokens` cuts it,
 * finish_reason `length`); completions echo the prompt; when `tools` are given and the user's
 * text names one of them (or tool_choice forces one), the answer is a call to it with arguments
 * `{"input": <user text>}`. Token counts are word counts.
 *
 * Failures: `setBehaviour(b)` (or a list) applies to matching requests (by path and/or model),
 * for the next `times` of them or until changed; `setBehaviour(null)` clears.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatReply,
  completionReply,
  embeddingsReply,
  imagesReply,
  isObject,
  modelsReply,
  ocrReply,
  openAiError,
  transcriptionReply,
  type FakeReply,
  type JsonObject,
  type ParsedForm,
  type ReplyOptions,
} from './fake-upstream-replies.js';
import { responsesReply } from './fake-upstream-responses.js';
import { classifierReply } from './fake-upstream-classifiers.js';

export type FakeFailure =
  /** Answer with this status (500, 429, 401, ...) and an OpenAI-shaped error body unless `body` is given. */
  | { type: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Accept the request and never answer. */
  | { type: 'hang_before_headers' }
  /** Read the request, then reset the connection (TCP RST) without answering. */
  | { type: 'reset_connection' }
  /** Send the headers and `afterFrames` SSE frames (default 1; half the body for JSON), then stall. */
  | { type: 'hang_mid_stream'; afterFrames?: number }
  /** Like hang_mid_stream, then destroy the connection. */
  | { type: 'cut_mid_stream'; afterFrames?: number }
  /** Like hang_mid_stream, then end the body cleanly (an SSE stream without its `[DONE]`). */
  | { type: 'end_mid_stream'; afterFrames?: number }
  /** Wait `delayMs` before every frame (or each half of a JSON body). */
  | { type: 'slow_chunks'; delayMs: number }
  /** 200 with a body that is not valid JSON (or an SSE frame that is not). */
  | { type: 'malformed_body' };

export interface FakeBehaviour {
  failure: FakeFailure;
  /** Apply to the next N matching requests only; default: until changed. */
  times?: number;
  /** Only requests to this path, e.g. '/v1/chat/completions'. */
  path?: string;
  /** Only requests whose body names this model. */
  model?: string;
}

export interface FakeUpstreamOptions {
  /** When set, any other bearer key gets 401 like OpenAI's "Incorrect API key provided". */
  apiKey?: string;
  /** false: never report usage (like some local servers). Default true. */
  usage?: boolean;
  /** false: /audio/transcriptions rejects verbose_json with 400. Default true. */
  verboseJson?: boolean;
  /** 'url': image generations answer with URLs served by the fake, whatever was asked. */
  images?: 'b64_json' | 'url';
  /** Ids listed by /v1/models. */
  models?: string[];
  /** Listen on this port (default: any free one), e.g. to come back where a stopped upstream was. */
  port?: number;
  /**
   * The model of a tool loop: a tool call's arguments are the JSON object the user's text ends with
   * (`call echo {"message": "hi"}`), and a conversation ending in a tool result is answered
   * `Tool said: <result>` (unless the user's text says `repeat`: then it calls the tool again).
   */
  toolLoop?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. '/v1/chat/completions'. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, `{ fields, files }` for multipart, the raw text otherwise (undefined when empty). */
  body: unknown;
  /** True when the client closed the connection before the response ended. */
  aborted: boolean;
  /** Resolves when the exchange is over (answered or aborted). */
  settled: Promise<void>;
}

export interface FakeUpstream {
  /** Base URL including /v1. */
  url: string;
  requests: RecordedRequest[];
  setBehaviour(behaviour: FakeBehaviour | FakeBehaviour[] | null): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const files = new Map<string, Buffer>();
  let behaviours: { behaviour: FakeBehaviour; remaining: number }[] = [];
  let closing: Promise<void> | undefined;

  const replyOptions: ReplyOptions = {
    usage: options.usage ?? true,
    toolLoop: options.toolLoop ?? false,
    verboseJson: options.verboseJson ?? true,
    images: options.images ?? 'b64_json',
    models: options.models ?? ['fake-chat', 'fake-embed'],
    origin: '',
    storeFile: (name, data) => files.set(name, data),
  };

  const takeFailure = (path: string, body: unknown): FakeFailure | undefined => {
    const model = isForm(body) ? body.fields.model : isObject(body) ? body.model : undefined;
    const entry = behaviours.find(
      ({ behaviour, remaining }) =>
        remaining > 0 &&
        (!behaviour.path || behaviour.path === path) &&
        (!behaviour.model || behaviour.model === model),
    );
    if (!entry) return undefined;
    entry.remaining--;
    return entry.behaviour.failure;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendReply(res, openAiError(500, `fake upstream crashed: ${String(error)}`));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const raw = await readBody(req);
    const body = await parseBody(req.headers['content-type'], raw);
    let markSettled = (): void => {};
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      aborted: false,
      settled: new Promise((resolve) => (markSettled = resolve)),
    };
    requests.push(record);
    res.once('close', () => {
      if (!res.writableFinished) record.aborted = true;
      markSettled();
    });

    if (req.method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(path.slice('/files/'.length));
      sendReply(res, file ? { kind: 'text', contentType: 'image/png', body: file } : openAiError(404, 'No such file'));
      return;
    }
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendReply(res, openAiError(401, 'Incorrect API key provided.', null, 'invalid_api_key'));
      return;
    }
    const failure = takeFailure(path, body);
    if (failure?.type === 'hang_before_headers') return;
    if (failure?.type === 'reset_connection') {
      req.socket.resetAndDestroy();
      return;
    }
    if (failure?.type === 'status') {
      const reply =
        failure.body === undefined
          ? openAiError(failure.status, `Injected failure (HTTP ${failure.status}).`)
          : { kind: 'json' as const, status: failure.status, body: failure.body };
      sendReply(res, reply, failure.headers);
      return;
    }
    const reply = await route(req.method ?? 'GET', path, body);
    if (failure) await sendWithFailure(res, reply, failure);
    else sendReply(res, reply);
  }

  function route(method: string, path: string, body: unknown): FakeReply | Promise<FakeReply> {
    if (method === 'GET' && path === '/v1/models') return modelsReply(replyOptions);
    if (method !== 'POST') return openAiError(404, `Unknown request URL: ${method} ${path}.`);
    if (path === '/v1/audio/transcriptions') {
      return isForm(body) ? transcriptionReply(body, replyOptions) : openAiError(400, 'Expected multipart/form-data.');
    }
    if (!isObject(body)) return openAiError(400, 'We could not parse the JSON body of your request.');
    switch (path) {
      case '/v1/chat/completions':
      case '/v1/fim/completions':
        return chatReply(body, replyOptions);
      case '/v1/completions':
        return completionReply(body, replyOptions);
      case '/v1/embeddings':
        return embeddingsReply(body);
      case '/v1/images/generations':
        return imagesReply(body, replyOptions);
      case '/v1/ocr':
        return ocrReply(body);
      case '/v1/responses':
        return responsesReply(body);
      case '/v1/moderations':
      case '/v1/chat/moderations':
      case '/v1/classifications':
      case '/v1/chat/classifications':
        return classifierReply(path, body);
      default:
        return openAiError(404, `Unknown request URL: POST ${path}.`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  replyOptions.origin = `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setBehaviour(behaviour) {
      const list = behaviour === null ? [] : Array.isArray(behaviour) ? behaviour : [behaviour];
      behaviours = list.map((entry) => ({ behaviour: entry, remaining: entry.times ?? Infinity }));
    },
    close() {
      closing ??= new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}

function isForm(body: unknown): body is ParsedForm {
  return isObject(body) && isObject(body.fields) && isObject(body.files);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseBody(contentType: string | undefined, raw: Buffer): Promise<unknown> {
  if (raw.length === 0) return undefined;
  if (contentType?.startsWith('multipart/form-data')) {
    // The WHATWG Request parses multipart for real, boundary and all.
    const form = await new Request('http://fake.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
    const parsed: ParsedForm = { fields: {}, files: {} };
    for (const [name, value] of form) {
      if (typeof value === 'string') parsed.fields[name] = value;
      else parsed.files[name] = { filename: value.name, type: value.type, size: value.size };
    }
    return parsed;
  }
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as JsonObject;
  } catch {
    return text;
  }
}

function serialise(reply: FakeReply): { status: number; contentType: string; parts: (string | Buffer)[] } {
  switch (reply.kind) {
    case 'json':
      return { status: reply.status, contentType: 'application/json', parts: [JSON.stringify(reply.body)] };
    case 'text':
      return { status: 200, contentType: reply.contentType, parts: [reply.body] };
    case 'sse':
      return {
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
        parts: [...reply.frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`), 'data: [DONE]\n\n'],
      };
    case 'events':
      return {
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
        parts: reply.frames.map((frame) => `event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`),
      };
  }
}

function sendReply(res: ServerResponse, reply: FakeReply, headers: Record<string, string> = {}): void {
  const { status, contentType, parts } = serialise(reply);
  res.writeHead(status, { 'content-type': contentType, ...headers });
  for (const part of parts) res.write(part);
  res.end();
}

async function sendWithFailure(res: ServerResponse, reply: FakeReply, failure: FakeFailure): Promise<void> {
  const { status, contentType } = serialise(reply);
  let { parts } = serialise(reply);
  if (failure.type === 'malformed_body') {
    res.writeHead(200, { 'content-type': contentType });
    res.end(
      reply.kind === 'sse' ? 'data: {"id": "chatcmpl-broken", "choices": [\n\n' : '{"id": "broken", "choices": [',
    );
    return;
  }
  if (reply.kind !== 'sse') {
    // Split a single body in two so "mid-stream" failures have a middle.
    const whole = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
    parts = [whole.subarray(0, Math.floor(whole.length / 2)), whole.subarray(Math.floor(whole.length / 2))];
  }
  res.writeHead(status, { 'content-type': contentType });
  res.flushHeaders();
  if (failure.type === 'slow_chunks') {
    for (const part of parts) {
      await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      if (res.destroyed) return;
      res.write(part);
    }
    res.end();
    return;
  }
  if (failure.type === 'hang_mid_stream' || failure.type === 'cut_mid_stream' || failure.type === 'end_mid_stream') {
    const count = reply.kind === 'sse' || reply.kind === 'events' ? (failure.afterFrames ?? 1) : 1;
    const sent = parts.slice(0, count);
    sent.forEach((part, i) => {
      // Cut only once the last part written has left, so the client sees the start first.
      const cut = failure.type === 'cut_mid_stream' && i === sent.length - 1;
      res.write(part, cut ? () => res.socket?.destroy() : undefined);
    });
    if (failure.type === 'end_mid_stream') res.end();
  }
}
