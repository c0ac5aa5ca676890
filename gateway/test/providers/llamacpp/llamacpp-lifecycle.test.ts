import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import { createLlamaCppProvider, listGgufModels } from '../../../src/providers/llamacpp/create-llamacpp-provider.js';
import type { ChatRequest, ChatResult } from '../../../src/providers/contracts/chat.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import {
  createTinyLlamaCppProvider,
  createTinyModelFolder,
  silentLogger,
  type TinyModelFolder,
} from '../../support/tiny-gguf-provider.js';
import { closeAfterTest } from '../../support/use-resources.js';

let folder: TinyModelFolder;

beforeAll(async () => {
  folder = await createTinyModelFolder();
  await writeFile(join(folder.dir, 'junk.gguf'), 'this is not a model, just text '.repeat(50));
  const real = await readFile(join(folder.dir, 'tiny.gguf'));
  await writeFile(join(folder.dir, 'truncated.gguf'), real.subarray(0, Math.floor(real.length / 3)));
  await writeFile(join(folder.dir, 'notes.txt'), 'not a model');
});

afterAll(async () => {
  await folder?.remove();
});

function provider(options: Record<string, unknown> = {}): ProviderInstance {
  return closeAfterTest(createTinyLlamaCppProvider(folder.dir, options));
}

function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: folder.model,
    messages: [{ role: 'user', content: 'Tell me a long story.' }],
    max_tokens: 4,
    temperature: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
}

describe('llamacpp model files', () => {
  it('lists the GGUF files of a folder, and nothing for a missing folder', async () => {
    const models = await listGgufModels(folder.dir);
    expect(models.map((model) => model.name)).toEqual(['junk', 'tiny', 'truncated']);
    const tiny = models.find((model) => model.name === 'tiny')!;
    expect(tiny.path).toBe(join(folder.dir, 'tiny.gguf'));
    expect(tiny.sizeBytes).toBeGreaterThan(100_000);
    expect(await listGgufModels(join(folder.dir, 'missing'))).toEqual([]);
  });

  it('reports an unknown model as model_file_not_found naming the folder', async () => {
    const instance = provider();
    const error = await instance.capabilities
      .chat!.chat(chatRequest({ model: 'nope' }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'invalid_request', code: 'model_file_not_found' });
    expect((error as Error).message).toContain(folder.dir);
    await expect(
      instance.capabilities.embeddings!.embed({ model: '../tiny', input: ['x'], signal: new AbortController().signal }),
    ).rejects.toMatchObject({
      code: 'model_file_not_found',
    });
    expect(instance.modelStatus!('nope').state).toBe('unavailable');
  });

  it.each(['junk', 'truncated'])(
    'fails to load a broken file (%s) with invalid_input and keeps serving',
    async (broken) => {
      const instance = provider();
      const failure = instance.capabilities.chat!.chat(chatRequest({ model: broken }));
      await expect(failure).rejects.toMatchObject({ kind: 'invalid_input', code: 'model_load_failed' });
      const status = instance.modelStatus!(broken);
      expect(status.state).toBe('unavailable');
      expect(status.detail).toContain(broken);
      const healthy = await instance.capabilities.chat!.chat(chatRequest());
      expect(healthy.choices[0].message.content).toEqual(expect.any(String));
    },
  );

  it('validates its options, naming the field', () => {
    const create = (options: Record<string, unknown>): ProviderInstance =>
      createLlamaCppProvider({
        id: 'local',
        dataDir: folder.dir,
        logger: silentLogger,
        options: { type: 'llamacpp', ...options },
      });
    expect(() => create({ threads: 'two' })).toThrow(/"threads"/);
    expect(() => create({ context_size: 1.5 })).toThrow(/"context_size"/);
    expect(() => create({ idle_unload_ms: -1 })).toThrow(/"idle_unload_ms"/);
    expect(() => create({ queue_limit: '8' })).toThrow(/"queue_limit"/);
    expect(() => create({ gpu: 'yes' })).toThrow(/"gpu"/);
    expect(() => create({ models_dir: 3 })).toThrow(/"models_dir"/);
  });

  it('looks in <dataDir>/models by default', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-data-'));
    try {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(dataDir, 'models'));
      await copyFile(join(folder.dir, 'tiny.gguf'), join(dataDir, 'models', 'default.gguf'));
      const instance = createLlamaCppProvider({
        id: 'local',
        dataDir,
        logger: silentLogger,
        options: { type: 'llamacpp', threads: 1 },
      });
      closeAfterTest(instance);
      const result = await instance.capabilities.completions!.complete({
        model: 'default',
        prompt: 'hi',
        max_tokens: 2,
        temperature: 0,
        signal: new AbortController().signal,
      });
      expect(result.choices[0].finish_reason).toBe('length');
      expect(result.usage.completion_tokens).toBeGreaterThanOrEqual(2);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('llamacpp lifecycle', () => {
  it('loads lazily, unloads after idle_unload_ms and cold-starts again', async () => {
    const instance = provider({ idle_unload_ms: 100 });
    expect(instance.modelStatus!(folder.model)).toEqual({ state: 'cold' });
    const loading = instance.capabilities.chat!.chat(chatRequest());
    expect(instance.modelStatus!(folder.model).state).toMatch(/^(cold|loading)$/);
    await loading;
    expect(instance.modelStatus!(folder.model)).toEqual({ state: 'ready' });
    await waitFor(() => instance.modelStatus!(folder.model).state === 'cold');
    const again = await instance.capabilities.chat!.chat(chatRequest());
    expect(again.usage.completion_tokens).toBe(4);
    expect(instance.modelStatus!(folder.model).state).toBe('ready');
  });

  it('keeps a model loaded with idle_unload_ms 0', async () => {
    const instance = provider({ idle_unload_ms: 0 });
    await instance.capabilities.chat!.chat(chatRequest());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(instance.modelStatus!(folder.model).state).toBe('ready');
  });

  it('rejects with rate_limited and a Retry-After when the queue is full', async () => {
    const instance = provider({ queue_limit: 1 });
    const chat = instance.capabilities.chat!;
    const running = new AbortController();
    const waiting = new AbortController();
    const stream = await chat.chatStream(chatRequest({ max_tokens: 1500, signal: running.signal }));
    const queued = chat.chat(chatRequest({ signal: waiting.signal }));
    const rejected = await chat.chat(chatRequest()).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ProviderError);
    expect(rejected).toMatchObject({ kind: 'rate_limited', retryable: true });
    expect((rejected as ProviderError).retryAfter).toBeGreaterThanOrEqual(1);

    // Aborting a request that waits in the queue ends it at once, while the first one still runs.
    waiting.abort();
    await expect(queued).rejects.toMatchObject({ kind: 'aborted' });
    running.abort();
    await expect(
      (async () => {
        for await (const event of stream) void event;
      })(),
    ).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('serves queued requests one after another', async () => {
    const instance = provider();
    const chat = instance.capabilities.chat!;
    const results: ChatResult[] = await Promise.all([1, 2, 3].map((n) => chat.chat(chatRequest({ max_tokens: n }))));
    expect(results.map((result) => result.usage.completion_tokens)).toEqual([1, 2, 3]);
  });

  it('close() stops a running generation with unavailable', async () => {
    const instance = provider();
    const stream = await instance.capabilities.chat!.chatStream(chatRequest({ max_tokens: 1500 }));
    await instance.close();
    await expect(
      (async () => {
        for await (const event of stream) void event;
      })(),
    ).rejects.toMatchObject({ kind: 'unavailable', code: 'engine_closed' });
  });

  it('close() disposes the engine and refuses further work', async () => {
    const instance = provider();
    await instance.warm!();
    expect(instance.status().state).toBe('ready');
    await instance.capabilities.chat!.chat(chatRequest());
    await instance.close();
    expect(instance.status().state).toBe('cold');
    await expect(instance.capabilities.chat!.chat(chatRequest())).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
