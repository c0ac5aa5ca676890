import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/_shared/provider-error.js';
import { createMistralProvider } from '../../../src/providers/mistral/create-mistral-provider.js';
import type { CompletionStreamEvent } from '../../../src/providers/contracts/completions.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { closeAfterTest, useFakeUpstream } from '../../support/use-resources.js';

const KEY = 'mistral-key';
let upstream: FakeUpstream;
let provider: ProviderInstance;
const signal = new AbortController().signal;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: KEY });
  provider = closeAfterTest(
    createMistralProvider({
      id: 'mistral',
      options: { type: 'mistral', base_url: upstream.url, api_key: KEY },
      dataDir: '/nonexistent',
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    }),
  );
});

describe('mistral chat', () => {
  it("speaks Mistral's spellings: random_seed, tool_choice any, no developer role, no stream_options", async () => {
    const result = await provider.capabilities.chat!.chat({
      model: 'mistral-small-latest',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'call lookup now' },
      ],
      seed: 42,
      tools: [{ type: 'function', function: { name: 'lookup' } }],
      tool_choice: 'required',
      signal,
    });
    expect(upstream.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(upstream.requests[0].body).toEqual({
      model: 'mistral-small-latest',
      random_seed: 42,
      stream: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'call lookup now' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup' } }],
      tool_choice: 'any',
    });
    expect(result.choices[0].message.tool_calls?.[0].function.name).toBe('lookup');

    await provider.capabilities
      .chat!.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal })
      .then(async (stream) => {
        for await (const _event of stream) {
          // drain
        }
      });
    expect(upstream.requests[1].body).not.toHaveProperty('stream_options');
  });
});

describe('mistral completions (FIM)', () => {
  it('completes through /v1/fim/completions, n > 1 as several requests', async () => {
    const result = await provider.capabilities.completions!.complete({
      model: 'codestral-latest',
      prompt: 'def add(a, b):',
      n: 2,
      seed: 1,
      signal,
    });
    expect(upstream.requests.map((request) => request.path)).toEqual(['/v1/fim/completions', '/v1/fim/completions']);
    expect(upstream.requests[0].body).toEqual({
      model: 'codestral-latest',
      prompt: 'def add(a, b):',
      random_seed: 1,
      stream: false,
    });
    expect(result.choices).toEqual([
      { index: 0, text: 'def add(a, b):', finish_reason: 'stop' },
      { index: 1, text: 'def add(a, b):', finish_reason: 'stop' },
    ]);
    expect(result.usage).toEqual({ prompt_tokens: 6, completion_tokens: 6 });
  });

  it('streams FIM deltas as completion text', async () => {
    const events: CompletionStreamEvent[] = [];
    for await (const event of await provider.capabilities.completions!.completeStream({
      model: 'c',
      prompt: 'x = 1',
      signal,
    }))
      events.push(event);
    expect(
      events
        .filter((event) => event.type === 'delta')
        .map((event) => (event.type === 'delta' ? event.text : ''))
        .join(''),
    ).toBe('x = 1');
    expect(events.at(-2)).toEqual({ type: 'finish', index: 0, finish_reason: 'stop' });
    expect(events.at(-1)?.type).toBe('usage');
  });
});

describe('mistral embeddings', () => {
  it('asks with output_dimension and no encoding_format', async () => {
    const result = await provider.capabilities.embeddings!.embed({
      model: 'mistral-embed',
      input: ['a', 'b'],
      dimensions: 16,
      signal,
    });
    expect(upstream.requests[0].body).toEqual({ model: 'mistral-embed', input: ['a', 'b'], output_dimension: 16 });
    expect(result.vectors.map((vector) => vector.length)).toEqual([16, 16]);
  });
});

describe('mistral ocr', () => {
  it('sends an image as an image_url data URL and maps pages', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const result = await provider.capabilities.ocr!.ocr({
      model: 'mistral-ocr-latest',
      document: png,
      mimeType: 'image/png',
      signal,
    });
    expect(upstream.requests[0].path).toBe('/v1/ocr');
    expect(upstream.requests[0].body).toEqual({
      model: 'mistral-ocr-latest',
      document: { type: 'image_url', image_url: `data:image/png;base64,${png.toString('base64')}` },
      include_image_base64: false,
    });
    expect(result).toEqual({
      pages: [
        {
          index: 0,
          width: 40,
          height: 30,
          text: '# Page 1\n\nFake OCR of a 40x30 image/png page.',
          blocks: [],
          source: 'ocr',
        },
      ],
    });
  });

  it('sends a PDF as a document_url with the requested pages', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([72, 144]);
    pdf.addPage([144, 72]);
    const bytes = Buffer.from(await pdf.save());
    const result = await provider.capabilities.ocr!.ocr({
      model: 'ocr',
      document: bytes,
      mimeType: 'application/pdf',
      pages: [1],
      signal,
    });
    expect(upstream.requests[0].body).toMatchObject({ document: { type: 'document_url' }, pages: [1] });
    expect(result.pages.map(({ index, width, height }) => ({ index, width, height }))).toEqual([
      { index: 1, width: 400, height: 200 },
    ]);
  });

  it("carries Mistral's 422 validation message", async () => {
    const error = await provider.capabilities
      .ocr!.ocr({ model: 'ocr', document: Buffer.from('not a pdf'), mimeType: 'application/pdf', signal })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: 'invalid_request',
      upstreamStatus: 422,
      param: 'document',
      message: 'document: could not read the application/pdf document',
    });
  });
});

describe('mistral provider', () => {
  it('offers chat, completions, embeddings, ocr, moderation and classification, and is ready', () => {
    expect(Object.keys(provider.capabilities).sort()).toEqual([
      'chat',
      'classification',
      'completions',
      'embeddings',
      'moderation',
      'ocr',
    ]);
    expect(provider.status()).toEqual({ state: 'ready' });
  });
});
