import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage, type DrawnImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { scriptedChatAnswer } from '../../support/scripted-chat-answer.js';

/** Structured OCR that is right or says it could not fill a field, offline and with a chat model routed (issue 32 item 2, issue 33 item 2). */
let offline: TestGateway;
let invoice: DrawnImage;

/** Until the local OCR engine is up (the gateway answers 503 before). */
async function ready(gateway: TestGateway): Promise<void> {
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
}
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const DATE_AND_TOTAL = { type: 'object', properties: { date: { type: 'string' }, total: { type: 'number' } } };
/** The OCR page's default schema in the console (renderer/src/features/ocr/components/schema-editor.tsx). */
const CONSOLE_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, date: { type: 'string' }, total: { type: 'number' } },
};

beforeAll(async () => {
  offline = await startGateway({ warm: true });
  await ready(offline);
  invoice = await drawTextImage(
    [
      { text: 'Invoice 2026-11 total 42.50 EUR', x: 30, y: 60, size: 28 },
      { text: 'Thank you for your order', x: 30, y: 120, size: 24 },
    ],
    { width: 640, height: 170 },
  );
});
afterAll(async () => {
  await offline.close();
});

describe('the rule-based extractor (no chat model routed)', () => {
  it('reads the total as 42.5, not the year, and leaves the date null with its reason', async () => {
    const response = await offline.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema: DATE_AND_TOTAL },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.structured_data.total).toBe(42.5);
    expect(body.structured_data.date).toBeNull();
    expect(body.structured_method).toBe('extractor');
    expect(body.structured_note).toMatch(/rule-based extractor/i);
    expect(body.structured_missing).toEqual([{ field: 'date', reason: expect.stringMatching(/no .*date/i) }]);
  });

  it("fills the console's default schema without a 422: title null with a reason", async () => {
    const response = await offline.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema: CONSOLE_SCHEMA },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.structured_data).toEqual({ title: null, date: null, total: 42.5 });
    expect(body.structured_missing.map((entry: Json) => entry.field)).toEqual(['title', 'date']);
  });

  it("gives the same answer in Mistral's document_annotation", async () => {
    const response = await offline.request('/v1/ocr', {
      method: 'POST',
      json: {
        document: { type: 'image_url', image_url: dataUrl(invoice.image) },
        document_annotation_format: { type: 'json_schema', json_schema: { name: 'invoice', schema: DATE_AND_TOTAL } },
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(JSON.parse(body.document_annotation)).toEqual({ date: null, total: 42.5 });
    expect(body.document_annotation_method).toBe('extractor');
    expect(body.document_annotation_missing).toEqual([{ field: 'date', reason: expect.any(String) }]);
  });

  it('still refuses with a 422 when a required field has no value', async () => {
    const schema = { ...DATE_AND_TOTAL, required: ['date'] };
    const response = await offline.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema },
    });
    expect(response.status).toBe(422);
    expect(await json(response)).toMatchObject({ object: 'error', code: 'required_fields_not_found', param: 'schema' });
  });
});

describe('with a chat model routed', () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  const chatAnswer = (content: string) =>
    scriptedChatAnswer(content, { usage: { prompt_tokens: 300, completion_tokens: 20 } });

  beforeAll(async () => {
    upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
    gateway = await startGateway({ warm: true, config: upstreamConfig(upstream) });
    await ready(gateway);
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it('asks the model with the schema as a json_schema response_format over the text and layout, labels the answer and bills its tokens', async () => {
    upstream.setBehaviour(chatAnswer(JSON.stringify({ date: null, total: 42.5 })));
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema: DATE_AND_TOTAL },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      structured_method: 'language_model',
      structured_model: 'svc-large-3-2512',
      structured_data: { date: null, total: 42.5 },
    });
    expect(body.structured_missing).toEqual([{ field: 'date', reason: expect.stringMatching(/model/i) }]);
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { type: 'object', properties: { total: { type: ['number', 'null'] } } } },
    });
    expect(sent.messages[1].content).toContain('42.50');
    expect(sent.messages[1].content).toMatch(/\[\d+, \d+, \d+, \d+\]/);

    expect(body.usage).toEqual({ prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 });
    const expected = (300 * 2 + 20 * 6) / 1e6;
    expect(Number(response.headers.get('x-request-cost'))).toBeCloseTo(expected, 10);
    const usage = await json(
      await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } }),
    );
    expect(usage.usage.by_model.find((entry: Json) => entry.key === 'svc-large-3-2512')).toMatchObject({
      prompt_tokens: 300,
      completion_tokens: 20,
    });
    expect(usage.usage.total_cost).toBeCloseTo(expected, 10);
  });

  it("bills Mistral's document annotation too, and labels it", async () => {
    upstream.setBehaviour(chatAnswer(JSON.stringify({ date: null, total: 42.5 })));
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: {
        document: { type: 'image_url', image_url: dataUrl(invoice.image) },
        document_annotation_format: { type: 'json_schema', json_schema: { name: 'invoice', schema: DATE_AND_TOTAL } },
      },
    });
    const body = await json(response);
    expect(JSON.parse(body.document_annotation)).toEqual({ date: null, total: 42.5 });
    expect(body.document_annotation_method).toBe('language_model');
    expect(Number(response.headers.get('x-request-cost'))).toBeCloseTo((300 * 2 + 20 * 6) / 1e6, 10);
  });

  it('falls back to the labelled extractor when the model fails, saying why, and bills nothing for the failed call', async () => {
    upstream.setBehaviour({
      failure: { type: 'status', status: 500, body: { error: { message: 'boom' } } },
      times: 10,
      path: '/v1/chat/completions',
    });
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema: DATE_AND_TOTAL },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ structured_method: 'extractor', structured_data: { total: 42.5, date: null } });
    expect(body.structured_note).toMatch(/rule-based extractor.*svc-large-3-2512/i);
    upstream.setBehaviour(null);
  });
});

describe('with a local GGUF chat model routed', () => {
  let gateway: TestGateway;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchyard-ocr-llm-'));
    mkdirSync(join(dataDir, 'models'));
    await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
    gateway = await startGateway({
      dataDir,
      warm: true,
      config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] },
    });
    await ready(gateway);
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fills the schema with grammar-constrained JSON from the local model, labelled and with its real token counts', async () => {
    // Random weights: only the shape is testable. Nothing is required, so each field may also be null.
    const schema = {
      type: 'object',
      properties: { currency: { enum: ['EUR', 'USD'] }, paid: { type: 'boolean' } },
      additionalProperties: false,
    };
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { image: dataUrl(invoice.image), structured_output: true, schema },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ structured_method: 'language_model', structured_model: 'svc-large-3-2512' });
    expect([null, 'EUR', 'USD']).toContain(body.structured_data.currency);
    expect([null, true, false]).toContain(body.structured_data.paid);
    expect(Object.keys(body.structured_data).sort()).toEqual(['currency', 'paid']);
    expect(body.usage.prompt_tokens).toBeGreaterThan(100);
    expect(body.usage.completion_tokens).toBeGreaterThan(0);
  });
});
