import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import type { ChatProvider, ChatRequest, ChatStreamEvent } from '../../../src/providers/contracts/chat.js';
import type { CompletionProvider, CompletionStreamEvent } from '../../../src/providers/contracts/completions.js';
import type { EmbeddingProvider } from '../../../src/providers/contracts/embeddings.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import {
  createTinyLlamaCppProvider,
  createTinyModelFolder,
  type TinyModelFolder,
} from '../../support/tiny-gguf-provider.js';
import { collect } from '../../support/collect.js';

let folder: TinyModelFolder;
let provider: ProviderInstance;
let chat: ChatProvider;
let completions: CompletionProvider;
let embeddings: EmbeddingProvider;

beforeAll(async () => {
  folder = await createTinyModelFolder();
  provider = createTinyLlamaCppProvider(folder.dir);
  chat = provider.capabilities.chat!;
  completions = provider.capabilities.completions!;
  embeddings = provider.capabilities.embeddings!;
});

afterAll(async () => {
  await provider?.close();
  await folder?.remove();
});

function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: folder.model,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say something about the world.' },
    ],
    max_tokens: 24,
    temperature: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A short ASCII snippet that first occurs at `index` >= 4 in `text`, to use as a stop sequence. */
function pickStopSequence(text: string): { stop: string; index: number } {
  for (let index = 4; index + 3 <= text.length; index++) {
    const stop = text.slice(index, index + 3);
    if (/^[a-z]{3}$/i.test(stop) && text.indexOf(stop) === index) return { stop, index };
  }
  throw new Error(`no usable stop sequence in ${JSON.stringify(text)}`);
}

describe('llamacpp chat', () => {
  it('answers with the model chat template and counts tokens', async () => {
    const result = await chat.chat(chatRequest());
    expect(result.choices).toHaveLength(1);
    const [choice] = result.choices;
    expect(choice.index).toBe(0);
    expect(choice.message.role).toBe('assistant');
    expect(typeof choice.message.content).toBe('string');
    expect(choice.message.content!.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(choice.finish_reason);
    expect(result.usage.prompt_tokens).toBeGreaterThan(10);
    expect(result.usage.completion_tokens).toBeGreaterThan(0);
    expect(result.usage.completion_tokens).toBeLessThanOrEqual(24);
    expect(provider.modelStatus!(folder.model)).toEqual({ state: 'ready' });
    expect(provider.status().state).toBe('ready');
  });

  it('accepts the model as a file name with .gguf or as an absolute path', async () => {
    const byName = await chat.chat(chatRequest({ max_tokens: 6 }));
    const byFile = await chat.chat(chatRequest({ max_tokens: 6, model: 'tiny.gguf' }));
    const byPath = await chat.chat(chatRequest({ max_tokens: 6, model: `${folder.dir}/tiny.gguf` }));
    expect(byFile.choices[0].message.content).toBe(byName.choices[0].message.content);
    expect(byPath.choices[0].message.content).toBe(byName.choices[0].message.content);
  });

  it('streams deltas that add up to the same text, then finish and usage', async () => {
    const plain = await chat.chat(chatRequest());
    const events = await collect(await chat.chatStream(chatRequest()));
    const deltas = events.filter(
      (event): event is Extract<ChatStreamEvent, { type: 'delta' }> => event.type === 'delta',
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas[0].role).toBe('assistant');
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(plain.choices[0].message.content);
    const finish = events.find((event) => event.type === 'finish');
    expect(finish).toEqual({ type: 'finish', index: 0, finish_reason: plain.choices[0].finish_reason });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: plain.usage });
  });

  it('stops at max_tokens with finish_reason length', async () => {
    const result = await chat.chat(chatRequest({ max_tokens: 5 }));
    expect(result.choices[0].finish_reason).toBe('length');
    expect(result.usage.completion_tokens).toBe(5);
  });

  it('stops before a stop sequence and leaves it out', async () => {
    const full = await chat.chat(chatRequest({ max_tokens: 40 }));
    const text = full.choices[0].message.content!;
    const { stop, index } = pickStopSequence(text);
    const stopped = await chat.chat(chatRequest({ max_tokens: 40, stop: [stop] }));
    expect(stopped.choices[0].finish_reason).toBe('stop');
    expect(stopped.choices[0].message.content).toBe(text.slice(0, index));
  });

  it('refuses max_tokens 0, which the engine would read as unlimited', async () => {
    await expect(chat.chat(chatRequest({ max_tokens: 0 }))).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'max_tokens',
    });
  });

  it('makes n choices', async () => {
    const result = await chat.chat(chatRequest({ n: 2, max_tokens: 4, temperature: 1, seed: 3 }));
    expect(result.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(result.usage.completion_tokens).toBe(8);
  });

  it('is reproducible for a seed at a temperature above zero', async () => {
    const first = await chat.chat(chatRequest({ temperature: 1.2, top_p: 0.95, seed: 11, max_tokens: 12 }));
    const second = await chat.chat(chatRequest({ temperature: 1.2, top_p: 0.95, seed: 11, max_tokens: 12 }));
    expect(second.choices[0].message.content).toBe(first.choices[0].message.content);
  });

  it('returns JSON matching a json_schema response format', async () => {
    const result = await chat.chat(
      chatRequest({
        max_tokens: 200,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'verdict',
            schema: {
              type: 'object',
              properties: { answer: { enum: ['yes', 'no'] }, sure: { type: 'boolean' } },
              required: ['answer', 'sure'],
              additionalProperties: false,
            },
          },
        },
      }),
    );
    expect(result.choices[0].finish_reason).toBe('stop');
    const parsed: unknown = JSON.parse(result.choices[0].message.content!);
    expect(parsed).toEqual({ answer: expect.stringMatching(/^(yes|no)$/), sure: expect.any(Boolean) });
  });

  it('keeps anyOf in a json_schema meaningful (the engine alone would emit null)', async () => {
    const result = await chat.chat(
      chatRequest({
        max_tokens: 200,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'pick',
            schema: {
              type: 'object',
              properties: { pick: { anyOf: [{ enum: ['left', 'right'] }, { type: 'boolean' }] } },
              required: ['pick'],
            },
          },
        },
      }),
    );
    const parsed = JSON.parse(result.choices[0].message.content!) as { pick: unknown };
    expect(['left', 'right', true, false]).toContain(parsed.pick);
  });

  it('refuses image parts with invalid_request', async () => {
    const image = chat.chat(
      chatRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            ],
          },
        ],
      }),
    );
    await expect(image).rejects.toMatchObject({ kind: 'invalid_request', param: 'messages' });
    await expect(
      chat.chatStream(
        chatRequest({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }),
      ),
    ).rejects.toBeInstanceOf(ProviderError);
  });

  it('aborts a stream mid-generation and stays usable', async () => {
    const controller = new AbortController();
    const stream = await chat.chatStream(chatRequest({ max_tokens: 1500, signal: controller.signal }));
    let deltas = 0;
    const consume = async (): Promise<void> => {
      for await (const event of stream) {
        if (event.type === 'delta' && ++deltas === 3) controller.abort();
      }
    };
    await expect(consume()).rejects.toMatchObject({ kind: 'aborted' });
    expect(deltas).toBeLessThan(20);
    const after = await chat.chat(chatRequest({ max_tokens: 3 }));
    expect(after.usage.completion_tokens).toBe(3);
  });

  it('stops generating when the consumer stops reading', async () => {
    const stream = await chat.chatStream(chatRequest({ max_tokens: 1500 }));
    for await (const event of stream) {
      if (event.type === 'delta') break;
    }
    // The queue turn is free again: the next request is served, not queued behind 1500 tokens.
    const after = await chat.chat(chatRequest({ max_tokens: 3 }));
    expect(after.choices[0].finish_reason).toBe('length');
  });
});

describe('llamacpp completions', () => {
  const request = (
    overrides: Partial<Parameters<CompletionProvider['complete']>[0]> = {},
  ): Parameters<CompletionProvider['complete']>[0] => ({
    model: folder.model,
    prompt: 'Once upon a time',
    max_tokens: 16,
    temperature: 0,
    signal: new AbortController().signal,
    ...overrides,
  });

  it('completes a prompt with usage', async () => {
    const result = await completions.complete(request());
    expect(result.choices).toHaveLength(1);
    expect(result.choices[0].text.length).toBeGreaterThan(0);
    expect(result.choices[0].finish_reason).toBe('length');
    expect(result.usage.prompt_tokens).toBeGreaterThan(1);
    expect(result.usage.completion_tokens).toBe(16);
  });

  it('streams the same text with finish and usage events', async () => {
    const plain = await completions.complete(request());
    const events = await collect(await completions.completeStream(request()));
    const text = events
      .filter((event): event is Extract<CompletionStreamEvent, { type: 'delta' }> => event.type === 'delta')
      .map((event) => event.text)
      .join('');
    expect(text).toBe(plain.choices[0].text);
    expect(events).toContainEqual({ type: 'finish', index: 0, finish_reason: 'length' });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: plain.usage });
  });

  it('honours stop sequences', async () => {
    const plain = await completions.complete(request({ max_tokens: 40 }));
    const { stop, index } = pickStopSequence(plain.choices[0].text);
    const stopped = await completions.complete(request({ max_tokens: 40, stop: [stop] }));
    expect(stopped.choices[0]).toEqual({
      index: 0,
      text: plain.choices[0].text.slice(0, index),
      finish_reason: 'stop',
    });
  });
});

describe('llamacpp embeddings', () => {
  it('returns one vector per input, equal for equal inputs', async () => {
    const result = await embeddings.embed({
      model: folder.model,
      input: ['hello world', 'a different sentence', 'hello world'],
      signal: new AbortController().signal,
    });
    expect(result.vectors).toHaveLength(3);
    for (const vector of result.vectors) expect(vector).toHaveLength(64);
    expect(result.vectors[2]).toEqual(result.vectors[0]);
    expect(result.vectors[1]).not.toEqual(result.vectors[0]);
    expect(result.vectors[0].every(Number.isFinite)).toBe(true);
    expect(result.prompt_tokens).toBeGreaterThanOrEqual(3);
  });

  it('refuses empty inputs and unavailable dimensions', async () => {
    const signal = new AbortController().signal;
    await expect(embeddings.embed({ model: folder.model, input: [''], signal })).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'input',
    });
    await expect(embeddings.embed({ model: folder.model, input: ['x'], dimensions: 8, signal })).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'dimensions',
    });
  });
});
