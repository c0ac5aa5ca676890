import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { drawTextImage } from '../../support/draw-text.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { json } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';
import { closeAfterTest, useGateway, useTempDir } from '../../support/use-resources.js';

const SERVER = 2;

let receiver: OtlpReceiver;

beforeEach(async () => {
  receiver = closeAfterTest(await startOtlpReceiver());
});

async function traceOf(response: Response): Promise<ReceivedSpan[]> {
  const traceId = response.headers.get('traceparent')!.split('-')[1];
  await receiver.waitFor((span) => span.traceId === traceId && span.kind === SERVER);
  return receiver.spans.filter((span) => span.traceId === traceId);
}

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `one span named ${name} in ${spans.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0];
}

/** Batches of spans every 100 ms instead of every second (OTEL_BSP_SCHEDULE_DELAY), and exports that give up after 1 s. */
const QUICK_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' };

describe('traces of requests on the local engines', () => {
  it('a llama.cpp chat: queue wait, model load, prompt processing and generation under the GenAI span', async () => {
    const dataDir = useTempDir('switchyard-trace-llm-');
    mkdirSync(join(dataDir, 'models'));
    await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
    const gateway = await useGateway({
      dataDir,
      config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...QUICK_EXPORT },
    });
    const ask = () =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'tiny-chat', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 6 },
      });
    const first = await ask();
    expect(first.status).toBe(200);
    const body = await json(first);
    const spans = await traceOf(first);
    const call = one(spans, 'chat tiny-chat');
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'llama.cpp',
      'gen_ai.request.max_tokens': 6,
      'gen_ai.usage.input_tokens': body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': body.usage.completion_tokens,
    });
    for (const stage of ['llama.cpp queue', 'llama.cpp model load', 'llama.cpp prompt'])
      expect(one(spans, stage).parentSpanId).toBe(call.spanId);
    expect(one(spans, 'llama.cpp prompt').attributes['gen_ai.usage.input_tokens']).toBe(body.usage.prompt_tokens);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
    const generation = one(spans, 'llama.cpp generate');
    expect(generation.parentSpanId).toBe(call.spanId);
    expect(generation.startNanos).toBeGreaterThanOrEqual(one(spans, 'llama.cpp prompt').endNanos);
    expect(generation.attributes['gen_ai.usage.output_tokens']).toBe(body.usage.completion_tokens);

    // The model is loaded now: the next request has no load span.
    const second = await ask();
    const again = await traceOf(second);
    expect(again.filter((span) => span.name === 'llama.cpp model load')).toEqual([]);
    expect(one(again, 'llama.cpp queue').parentSpanId).toBe(one(again, 'chat tiny-chat').spanId);
  }, 60_000);

  it('an OCR request on the local engine: page decode, recognition and layout', async () => {
    const gateway = await useGateway({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...QUICK_EXPORT } });
    const page = await drawTextImage([{ text: 'Traced page', x: 40, y: 80, size: 40 }], { width: 500, height: 160 });
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: {
        model: 'svc-ocr-3-2512',
        document: { type: 'image_url', image_url: `data:image/png;base64,${page.image.toString('base64')}` },
      },
    });
    expect(response.status).toBe(200);
    const spans = await traceOf(response);
    const call = one(spans, 'ocr svc-ocr-3-2512');
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'ocr', 'gen_ai.provider.name': 'tesseract' });
    expect(one(spans, 'ocr page decode').parentSpanId).toBe(call.spanId);
    expect(one(spans, 'ocr page recognise').parentSpanId).toBe(call.spanId);
    expect(one(spans, 'ocr page recognise').attributes['switchyard.ocr.page']).toBe(0);
    const server = one(spans, 'POST /v1/ocr');
    expect(one(spans, 'ocr layout').parentSpanId).toBe(server.spanId);
  }, 60_000);
});
