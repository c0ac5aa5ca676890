import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';

/**
 * What the fake upstream answers, endpoint by endpoint, in the real OpenAI / Mistral wire format.
 * Content is deterministic so tests can assert it: chat and completions echo the user's text.
 */

export type JsonObject = Record<string, unknown>;

export type FakeReply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'sse'; frames: unknown[] }
  /** Named server-sent events (`event: <type>`), no `[DONE]`: the Responses API's stream. */
  | { kind: 'events'; frames: ({ type: string } & JsonObject)[] }
  | { kind: 'text'; contentType: string; body: string | Buffer };

export interface ReplyOptions {
  /** false mimics servers that never report usage. */
  usage: boolean;
  /** false makes /audio/transcriptions reject verbose_json, as some servers do. */
  verboseJson: boolean;
  /** 'url' answers image generations with a URL the fake serves, whatever was asked. */
  images: 'b64_json' | 'url';
  models: string[];
  /** Origin of the fake, for image URLs. */
  origin: string;
  /** Stores a generated file under a name the fake serves at /files/<name>. */
  storeFile(name: string, data: Buffer): void;
  /** The model of a tool loop (see FakeUpstreamOptions.toolLoop). */
  toolLoop?: boolean;
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}${(++counter).toString(36).padStart(6, '0')}`;
const now = (): number => Math.floor(Date.now() / 1000);

export const openAiError = (
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
): FakeReply => ({
  kind: 'json',
  status,
  body: {
    error: {
      message,
      type: status === 401 ? 'invalid_request_error' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param,
      code,
    },
  },
});

// ---------- chat ----------

/** Tokens are whitespace-separated words with their trailing space, so joining them gives the text back. */
export function tokensOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join(' ');
}

function messagesOf(body: JsonObject): JsonObject[] {
  return Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function lastUserText(body: JsonObject): string {
  const user = messagesOf(body)
    .filter((message) => message.role === 'user')
    .at(-1);
  return user ? textOf(user.content) : '';
}

function countWords(text: string): number {
  return tokensOf(text).filter((token) => token.trim() !== '').length;
}

function promptTokens(body: JsonObject): number {
  if (typeof body.prompt === 'string') return countWords(body.prompt);
  return messagesOf(body).reduce((sum, message) => sum + countWords(textOf(message.content)) + 1, 0);
}

interface PlannedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A tool call when tools are given and the prompt names one (or tool_choice forces one); the model of
 * a tool loop makes it twice in one answer (parallel calls) when the prompt says `twice`.
 */
function planToolCalls(body: JsonObject, userText: string, options: ReplyOptions): PlannedToolCall[] {
  const call = planToolCall(body, userText, options);
  if (!call) return [];
  if (!options.toolLoop || !userText.includes('twice')) return [call];
  return [call, { ...call, id: nextId('call_') }];
}

function planToolCall(body: JsonObject, userText: string, options: ReplyOptions): PlannedToolCall | undefined {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const names = tools.map((tool) =>
    isObject(tool.function) && typeof tool.function.name === 'string' ? tool.function.name : '',
  );
  const choice = body.tool_choice;
  if (names.length === 0 || choice === 'none') return undefined;
  let name: string | undefined;
  if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === 'string')
    name = choice.function.name;
  name ??= names.find((candidate) => candidate !== '' && userText.includes(candidate));
  if (!name && (choice === 'required' || choice === 'any')) name = names[0];
  if (!name) return undefined;
  return {
    id: nextId('call_'),
    name,
    arguments: options.toolLoop ? loopArguments(userText) : JSON.stringify({ input: userText }),
  };
}

/** The JSON object the user's text carries (`... {"message": "hi"}`), else `{"input": <text>}`. */
function loopArguments(userText: string): string {
  const start = userText.indexOf('{');
  if (start >= 0) {
    try {
      return JSON.stringify(JSON.parse(userText.slice(start)));
    } catch {
      // not JSON: the text itself
    }
  }
  return JSON.stringify({ input: userText });
}

/** The last message when it is a tool result and the model of a tool loop reads it (unless the user asked to `repeat`). */
function toolResultToAnswer(body: JsonObject, options: ReplyOptions): string | undefined {
  const last = messagesOf(body).at(-1);
  if (!options.toolLoop || last?.role !== 'tool' || lastUserText(body).includes('repeat')) return undefined;
  return `Tool said: ${textOf(last.content)}`;
}

interface PlannedAnswer {
  tokens: string[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  toolCalls: PlannedToolCall[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function planAnswer(body: JsonObject, text: string, options: ReplyOptions): PlannedAnswer {
  const answer = toolResultToAnswer(body, options);
  const toolCalls = answer === undefined ? planToolCalls(body, text, options) : [];
  const all = tokensOf(answer ?? (text === '' ? 'Hello from the fake upstream.' : text));
  const max = typeof body.max_tokens === 'number' ? body.max_tokens : Infinity;
  const tokens = toolCalls.length > 0 ? [] : all.slice(0, max);
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : tokens.length < all.length ? 'length' : 'stop';
  const completion =
    toolCalls.length > 0 ? toolCalls.reduce((sum, call) => sum + countWords(call.arguments), 0) : tokens.length;
  const prompt = promptTokens(body);
  return {
    tokens,
    finishReason,
    toolCalls,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function choiceCount(body: JsonObject): number {
  return typeof body.n === 'number' && body.n > 1 ? Math.min(body.n, 8) : 1;
}

/** `/v1/chat/completions`, and Mistral's `/v1/fim/completions` (same answer shape, `prompt` instead of `messages`). */
export function chatReply(body: JsonObject, options: ReplyOptions): FakeReply {
  if (typeof body.model !== 'string') return openAiError(400, 'you must provide a model parameter', 'model');
  const isFim = typeof body.prompt === 'string';
  if (!isFim && messagesOf(body).length === 0)
    return openAiError(400, "'messages' must contain at least one message", 'messages');
  const plan = planAnswer(body, isFim ? String(body.prompt) : lastUserText(body), options);
  const id = nextId('chatcmpl-');
  const created = now();
  const model = body.model;
  const indices = Array.from({ length: choiceCount(body) }, (_, index) => index);
  const toolCalls =
    plan.toolCalls.length > 0
      ? plan.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }))
      : undefined;

  if (body.stream !== true) {
    return {
      kind: 'json',
      status: 200,
      body: {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: indices.map((index) => ({
          index,
          message: {
            role: 'assistant',
            content: toolCalls ? null : plan.tokens.join(''),
            ...(toolCalls ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: plan.finishReason,
        })),
        ...(options.usage ? { usage: scaleUsage(plan.usage, indices.length) } : {}),
      },
    };
  }

  const includeUsage = options.usage && isObject(body.stream_options) && body.stream_options.include_usage === true;
  const chunk = (choices: unknown[]): JsonObject => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices,
    ...(includeUsage ? { usage: null } : {}),
  });
  const frames: unknown[] = [];
  for (const index of indices) {
    frames.push(chunk([{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]));
    plan.toolCalls.forEach(({ id: callId, name, arguments: args }, call) => {
      const half = Math.ceil(args.length / 2);
      frames.push(
        chunk([
          {
            index,
            delta: { tool_calls: [{ index: call, id: callId, type: 'function', function: { name, arguments: '' } }] },
            finish_reason: null,
          },
        ]),
      );
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        frames.push(
          chunk([
            { index, delta: { tool_calls: [{ index: call, function: { arguments: piece } }] }, finish_reason: null },
          ]),
        );
      }
    });
    for (const token of plan.tokens)
      frames.push(chunk([{ index, delta: { content: token }, logprobs: null, finish_reason: null }]));
    frames.push(chunk([{ index, delta: {}, logprobs: null, finish_reason: plan.finishReason }]));
  }
  if (includeUsage) frames.push({ ...chunk([]), usage: scaleUsage(plan.usage, indices.length) });
  return { kind: 'sse', frames };
}

function scaleUsage(usage: PlannedAnswer['usage'], choices: number): PlannedAnswer['usage'] {
  const completion = usage.completion_tokens * choices;
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: completion,
    total_tokens: usage.prompt_tokens + completion,
  };
}

// ---------- completions ----------

export function completionReply(body: JsonObject, options: ReplyOptions): FakeReply {
  if (typeof body.model !== 'string') return openAiError(400, 'you must provide a model parameter', 'model');
  const prompt = Array.isArray(body.prompt)
    ? body.prompt.map(String).join('\n')
    : typeof body.prompt === 'string'
      ? body.prompt
      : undefined;
  if (prompt === undefined) return openAiError(400, "'prompt' is required", 'prompt');
  const plan = planAnswer({ ...body, prompt, tools: undefined }, prompt, options);
  const id = nextId('cmpl-');
  const created = now();
  const indices = Array.from({ length: choiceCount(body) }, (_, index) => index);
  const base = { id, object: 'text_completion', created, model: body.model };

  if (body.stream !== true) {
    return {
      kind: 'json',
      status: 200,
      body: {
        ...base,
        choices: indices.map((index) => ({
          index,
          text: plan.tokens.join(''),
          logprobs: null,
          finish_reason: plan.finishReason,
        })),
        ...(options.usage ? { usage: scaleUsage(plan.usage, indices.length) } : {}),
      },
    };
  }
  const includeUsage = options.usage && isObject(body.stream_options) && body.stream_options.include_usage === true;
  const frames: unknown[] = [];
  for (const index of indices) {
    for (const token of plan.tokens)
      frames.push({ ...base, choices: [{ index, text: token, logprobs: null, finish_reason: null }] });
    frames.push({ ...base, choices: [{ index, text: '', logprobs: null, finish_reason: plan.finishReason }] });
  }
  if (includeUsage) frames.push({ ...base, choices: [], usage: scaleUsage(plan.usage, indices.length) });
  return { kind: 'sse', frames };
}

// ---------- embeddings ----------

/** A deterministic unit vector for a text: the same text always embeds the same. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (const char of text) seed = Math.imul(seed ^ char.codePointAt(0)!, 16777619) >>> 0;
  const raw = Array.from({ length: dimensions }, (_, i) => Math.sin(seed + i * 1.618));
  const norm = Math.hypot(...raw) || 1;
  return raw.map((value) => Math.fround(value / norm));
}

export function embeddingsReply(body: JsonObject): FakeReply {
  if (typeof body.model !== 'string') return openAiError(400, 'you must provide a model parameter', 'model');
  const inputs =
    typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : undefined;
  if (!inputs || inputs.length === 0) return openAiError(400, "'input' is required", 'input');
  const requested = body.dimensions ?? body.output_dimension;
  const dimensions = typeof requested === 'number' ? requested : 8;
  const base64 = body.encoding_format === 'base64';
  const tokens = inputs.reduce((sum, input) => sum + countWords(input), 0);
  return {
    kind: 'json',
    status: 200,
    body: {
      object: 'list',
      data: inputs.map((input, index) => {
        const vector = fakeEmbedding(input, dimensions);
        const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
        return { object: 'embedding', index, embedding };
      }),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    },
  };
}

// ---------- models ----------

export function modelsReply(options: ReplyOptions): FakeReply {
  return {
    kind: 'json',
    status: 200,
    body: {
      object: 'list',
      data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake-upstream' })),
    },
  };
}

// ---------- images ----------

export async function imagesReply(body: JsonObject, options: ReplyOptions): Promise<FakeReply> {
  if (typeof body.prompt !== 'string' || body.prompt === '') return openAiError(400, "'prompt' is required", 'prompt');
  const size = typeof body.size === 'string' ? body.size : '1024x1024';
  const match = /^(\d{1,4})x(\d{1,4})$/.exec(size);
  if (!match) return openAiError(400, `Invalid size '${size}'.`, 'size');
  const [width, height] = [Number(match[1]), Number(match[2])];
  const n = typeof body.n === 'number' ? body.n : 1;
  const asUrl = options.images === 'url' || body.response_format === 'url';
  const data = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const png = await fakePng(width, height, `${body.prompt}#${i}`);
      if (!asUrl) return { b64_json: png.toString('base64'), revised_prompt: body.prompt };
      const name = `${nextId('img-')}.png`;
      options.storeFile(name, png);
      return { url: `${options.origin}/files/${name}`, revised_prompt: body.prompt };
    }),
  );
  return { kind: 'json', status: 200, body: { created: now(), data } };
}

/** A real PNG of the given size, in a colour derived from the seed. */
export function fakePng(width: number, height: number, seed: string): Promise<Buffer> {
  const [r, g, b] = fakeEmbedding(seed, 3).map((value) => Math.round((value + 1) * 127));
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

// ---------- transcriptions ----------

export interface ParsedForm {
  fields: Record<string, string>;
  files: Record<string, { filename: string; type: string; size: number }>;
}

export function transcriptionReply(form: ParsedForm, options: ReplyOptions): FakeReply {
  const file = form.files.file;
  if (!file) return openAiError(400, "Missing required parameter: 'file'.", 'file');
  if (!form.fields.model) return openAiError(400, "Missing required parameter: 'model'.", 'model');
  const format = form.fields.response_format ?? 'json';
  if (format === 'verbose_json' && !options.verboseJson) {
    return openAiError(
      400,
      `response_format 'verbose_json' is not compatible with model '${form.fields.model}'`,
      'response_format',
      'unsupported_value',
    );
  }
  const words = tokensOf(`Transcript of ${file.filename} with ${file.size} bytes.`);
  const half = Math.ceil(words.length / 2);
  const segments = [words.slice(0, half), words.slice(half)].map((part, id) => ({
    id,
    seek: 0,
    start: id,
    end: id + 1,
    text: ` ${part.join('').trim()}`,
    tokens: [],
    temperature: 0,
    avg_logprob: -0.2,
    compression_ratio: 1,
    no_speech_prob: 0.01,
  }));
  const text = words.join('');
  const timestamp = (seconds: number, separator: string): string => `00:00:0${seconds}${separator}000`;
  switch (format) {
    case 'json':
      return { kind: 'json', status: 200, body: { text } };
    case 'verbose_json':
      return {
        kind: 'json',
        status: 200,
        body: { task: 'transcribe', language: form.fields.language ?? 'english', duration: 2, text, segments },
      };
    case 'text':
      return { kind: 'text', contentType: 'text/plain; charset=utf-8', body: `${text}\n` };
    case 'srt':
      return {
        kind: 'text',
        contentType: 'text/plain; charset=utf-8',
        body: segments
          .map((s) => `${s.id + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.text.trim()}\n`)
          .join('\n'),
      };
    case 'vtt':
      return {
        kind: 'text',
        contentType: 'text/vtt; charset=utf-8',
        body: `WEBVTT\n\n${segments.map((s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${s.text.trim()}\n`).join('\n')}`,
      };
    default:
      return openAiError(400, `Invalid response_format '${format}'.`, 'response_format');
  }
}

// ---------- Mistral OCR ----------

export async function ocrReply(body: JsonObject): Promise<FakeReply> {
  const document = isObject(body.document) ? body.document : undefined;
  const rawUrl =
    document?.type === 'document_url'
      ? document.document_url
      : document?.type === 'image_url'
        ? document.image_url
        : undefined;
  const url = isObject(rawUrl) ? rawUrl.url : rawUrl;
  const mistralError = (message: string): FakeReply => ({
    kind: 'json',
    status: 422,
    body: {
      object: 'error',
      message: { detail: [{ type: 'value_error', loc: ['body', 'document'], msg: message }] },
      type: 'invalid_request_error',
      param: null,
      code: null,
    },
  });
  if (typeof url !== 'string') return mistralError('document must be a document_url or image_url chunk');
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return mistralError('the fake upstream reads data URLs only');
  const [mimeType, bytes] = [match[1], Buffer.from(match[2], 'base64')];

  let sizes: { width: number; height: number }[];
  try {
    if (mimeType === 'application/pdf') {
      const pdf = await PDFDocument.load(bytes);
      sizes = pdf.getPages().map((page) => ({
        width: Math.round((page.getWidth() * 200) / 72),
        height: Math.round((page.getHeight() * 200) / 72),
      }));
    } else {
      const meta = await sharp(bytes).metadata();
      sizes = [{ width: meta.width ?? 0, height: meta.height ?? 0 }];
    }
  } catch {
    return mistralError(`could not read the ${mimeType} document`);
  }
  const wanted = Array.isArray(body.pages) ? new Set(body.pages.map(Number)) : undefined;
  const pages = sizes
    .map((size, index) => ({
      index,
      markdown: `# Page ${index + 1}\n\nFake OCR of a ${size.width}x${size.height} ${mimeType} page.`,
      images: [],
      dimensions: { dpi: 200, height: size.height, width: size.width },
    }))
    .filter((page) => !wanted || wanted.has(page.index));
  return {
    kind: 'json',
    status: 200,
    body: {
      pages,
      model: body.model,
      document_annotation: null,
      usage_info: { pages_processed: pages.length, doc_size_bytes: bytes.length },
    },
  };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
