import { createServer } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { readSse } from '../../support/sse.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { closeAfterTest, useFakeUpstream, useGateway } from '../../support/use-resources.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

let upstream: FakeUpstream;
let backup: FakeUpstream;
let receiver: OtlpReceiver;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  backup = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  receiver = closeAfterTest(await startOtlpReceiver());
});

/**
 * The SDK's standard variables at a test's pace: a batch every 100 ms instead of every second, and
 * exports (spans, and the metrics the endpoint also gets) that give up after 1 s instead of 10 s, so a
 * dead collector's lost spans are counted, and a stopping gateway's last exports end, within a second.
 */
const QUICK_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' };

function tracedGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  return useGateway({
    config: upstreamConfig(upstream, { fallbackUpstream: backup }),
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...QUICK_EXPORT, ...env },
  });
}

function chat(gateway: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return gateway.request('/v1/chat/completions', { method: 'POST', json: body, headers });
}

/** The spans of one trace once its server span (the last to end) has arrived. */
async function traceOf(traceId: string): Promise<ReceivedSpan[]> {
  await receiver.waitFor((span) => span.traceId === traceId && span.kind === SERVER);
  return receiver.spans.filter((span) => span.traceId === traceId);
}

function traceparentOf(response: Response): { traceId: string; spanId: string } {
  const header = response.headers.get('traceparent');
  expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  const [, traceId, spanId] = header!.split('-');
  return { traceId, spanId };
}

function named(spans: ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((span) => span.name === name);
}

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = named(spans, name);
  expect(found, `one span named ${name} in ${spans.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0];
}

describe('traces of chat requests, exported over OTLP/HTTP', () => {
  it('a plain chat is one trace: server span, the GenAI call, its upstream request and the usage write (protobuf)', async () => {
    const gateway = await tracedGateway();
    const response = await chat(gateway, {
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'secret words of the user' }],
      temperature: 0.3,
      max_tokens: 50,
    });
    expect(response.status).toBe(200);
    const { traceId, spanId } = traceparentOf(response);
    const spans = await traceOf(traceId);
    expect(receiver.contentTypes[0]).toBe('application/x-protobuf');

    const server = one(spans, 'POST /v1/chat/completions');
    expect(server).toMatchObject({ spanId, kind: SERVER, parentSpanId: undefined });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'switchyard.request.id': response.headers.get('x-request-id'),
      'url.path': '/v1/chat/completions',
      'url.scheme': 'http',
    });
    expect(server.attributes['switchyard.key.id']).toBeTypeOf('string');
    expect(server.attributes['switchyard.cost']).toBeGreaterThan(0);
    expect(server.resource['service.name']).toBe('switchyard');

    expect(one(spans, 'usage write').parentSpanId).toBe(spanId);
    // Authentication and the reservation are spans only when they fail or take a millisecond or more.
    for (const stage of [...named(spans, 'authenticate'), ...named(spans, 'reserve spend')])
      expect(stage).toMatchObject({ parentSpanId: spanId, statusCode: 0 });

    const call = one(spans, 'chat svc-large-3-2512');
    expect(call.parentSpanId).toBe(spanId);
    expect(call.kind).toBe(CLIENT);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'svc-large-3-2512',
      'gen_ai.response.model': 'svc-large-3-2512',
      'gen_ai.request.temperature': 0.3,
      'gen_ai.request.max_tokens': 50,
      'gen_ai.response.finish_reasons': ['stop'],
      'switchyard.provider.id': 'upstream',
    });
    const body = await json(response);
    expect(call.attributes['gen_ai.response.id']).toBe(body.id);
    expect(call.attributes['gen_ai.usage.input_tokens']).toBe(body.usage.prompt_tokens);
    expect(call.attributes['gen_ai.usage.output_tokens']).toBe(body.usage.completion_tokens);

    const http = one(spans, 'POST');
    expect(http.parentSpanId).toBe(call.spanId);
    expect(http.kind).toBe(CLIENT);
    expect(http.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(upstream.url).port),
      'http.response.status_code': 200,
      'url.full': `${upstream.url}/chat/completions`,
    });
    // Without content capture, no message text leaves in a span.
    expect(
      JSON.stringify(spans, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)),
    ).not.toContain('secret words');
    expect(call.attributes['gen_ai.input.messages']).toBeUndefined();
  });

  it("the upstream span's url.full has no query values, and the server span's url.path no query", async () => {
    const config = upstreamConfig(upstream);
    const provider = config.providers.find((entry) => entry.id === 'upstream')!;
    provider.base_url = `http://user:pass@${new URL(upstream.url).host}${new URL(upstream.url).pathname}?api-version=2025-01&key=secret-in-query`;
    const gateway = await useGateway({ config, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...QUICK_EXPORT } });
    const response = await gateway.request('/v1/chat/completions?probe=query-secret', {
      method: 'POST',
      json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] },
    });
    const spans = await traceOf(traceparentOf(response).traceId);
    const http = one(spans, 'POST');
    expect(http.attributes['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\?api-version=REDACTED&key=REDACTED$/);
    expect(JSON.stringify(http.attributes)).not.toMatch(/secret-in-query|pass/);
    expect(one(spans, 'POST /v1/chat/completions').attributes['url.path']).toBe('/v1/chat/completions');
  });

  it('the request log keeps the spans in the detail, not in the list', async () => {
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const response = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    const { traceId, spanId } = traceparentOf(response);
    const id = response.headers.get('x-request-id')!;
    let detail: Json = {};
    await expect
      .poll(async () => {
        detail = await json(await gateway.request(`/console/requests/${id}`));
        return detail.trace_id;
      })
      .toBe(traceId);
    const names = (detail.spans as Json[]).map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining(['POST /v1/chat/completions', 'chat svc-large-3-2512', 'POST', 'usage write']),
    );
    const server = (detail.spans as Json[]).find((span) => span.span_id === spanId)!;
    expect(server).toMatchObject({ kind: 'server', status: 'unset', trace_id: traceId });
    expect(server.parent_span_id).toBeUndefined();
    const list = await json(await gateway.request('/console/requests'));
    const listed = (list.data as Json[]).find((entry) => entry.id === id)!;
    expect(listed.trace_id).toBe(traceId);
    expect(listed.spans).toBeUndefined();
  });

  it('a refused key is a failed authentication span', async () => {
    const gateway = await tracedGateway();
    const response = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] },
      key: 'sk-sy-not-a-key-0123456789',
    });
    expect(response.status).toBe(401);
    const { traceId, spanId } = traceparentOf(response);
    const spans = await traceOf(traceId);
    const authentication = one(spans, 'authenticate');
    expect(authentication).toMatchObject({ parentSpanId: spanId, statusCode: ERROR });
    expect(authentication.attributes['error.type']).toBe('invalid_api_key');
    expect(one(spans, 'POST /v1/chat/completions').attributes['http.response.status_code']).toBe(401);
  });

  it('the store keeps the spans of a retried request across a restart, and the trace id of every one', async () => {
    const config = upstreamConfig(upstream);
    const first = await useGateway({ config });
    const plain = await chat(first, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    upstream.setBehaviour({ failure: { type: 'status', status: 503 }, times: 1 });
    const retried = await chat(first, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    expect([plain.status, retried.status]).toEqual([200, 200]);
    await first.stop();
    const restarted = await useGateway({ config, dataDir: first.dataDir });
    const detail = async (response: Response) =>
      json(await restarted.request(`/console/requests/${response.headers.get('x-request-id')}`));
    expect((await detail(plain)).trace_id).toBe(traceparentOf(plain).traceId);
    const retriedEntry = await detail(retried);
    expect((retriedEntry.spans as Json[]).filter((span) => span.name === 'POST')).toHaveLength(2);
  });

  it('a streamed chat ends its GenAI span with the stream, its finish reason and usage (http/json)', async () => {
    const gateway = await tracedGateway({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const response = await chat(gateway, {
      model: 'svc-large-3',
      messages: [{ role: 'user', content: 'count to three' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const frames = await readSse(response);
    expect(frames.at(-1)).toBe('[DONE]');
    const spans = await traceOf(traceparentOf(response).traceId);
    expect(receiver.contentTypes[0]).toBe('application/json');
    const call = one(spans, 'chat svc-large-3-2512');
    expect(call.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(call.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    // The waterfall's first and last token marks.
    expect(call.events.map((event) => event.name)).toEqual(['first token', 'last token']);
    const http = one(spans, 'POST');
    // The upstream span lasts until the upstream stream ended, within the GenAI span.
    expect(http.endNanos).toBeLessThanOrEqual(call.endNanos);
    expect(http.endNanos).toBeGreaterThan(http.startNanos);
  });

  it("continues the client's trace and hands its own upstream span on to the provider", async () => {
    const gateway = await tracedGateway();
    const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const response = await chat(
      gateway,
      { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] },
      { traceparent: `00-${clientTrace}-${clientSpan}-01`, tracestate: 'vendor=opaque' },
    );
    expect(response.status).toBe(200);
    const { traceId, spanId } = traceparentOf(response);
    expect(traceId).toBe(clientTrace);
    const spans = await traceOf(clientTrace);
    const server = one(spans, 'POST /v1/chat/completions');
    expect(server.spanId).toBe(spanId);
    expect(server.parentSpanId).toBe(clientSpan);
    expect(server.traceState).toBe('vendor=opaque');

    const sent = upstream.requests.at(-1)!.headers.traceparent as string;
    const [, sentTrace, sentParent] = sent.split('-');
    expect(sentTrace).toBe(clientTrace);
    expect(sentParent).toBe(one(spans, 'POST').spanId);
    expect(upstream.requests.at(-1)!.headers.tracestate).toBe('vendor=opaque');
  });

  it("hands the client's valid tracestate members on upstream, and ignores malformed traceparents (W3C)", async () => {
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const clientTrace = '6bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const send = (headers: Record<string, string>) =>
      chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] }, headers);

    // Two tracestate fields are one list (RFC 7230); an invalid member is left out, the others kept in order.
    const continued = await send({
      traceparent: `00-${clientTrace}-${clientSpan}-01`,
      tracestate: 'congo=t61rcWkgMzE,Bad Key=1,rojo=00f067aa0ba902b7',
    });
    expect(traceparentOf(continued).traceId).toBe(clientTrace);
    const upstreamHeaders = upstream.requests.at(-1)!.headers;
    expect(upstreamHeaders.tracestate).toBe('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect((upstreamHeaders.traceparent as string).split('-')[1]).toBe(clientTrace);

    const malformed = [
      `ff-${clientTrace}-${clientSpan}-01`,
      `00-${'0'.repeat(32)}-${clientSpan}-01`,
      `00-${clientTrace}-${'0'.repeat(16)}-01`,
      `00-${clientTrace.slice(1)}-${clientSpan}-01`,
      `00-${clientTrace}-${clientSpan}0-01`,
      `00-${clientTrace.toUpperCase()}-${clientSpan}-01`,
      `00-${clientTrace}-${clientSpan}-01-extra`,
      `0-${clientTrace}-${clientSpan}-01`,
    ];
    for (const traceparent of malformed) {
      const response = await send({ traceparent, tracestate: 'congo=t61rcWkgMzE' });
      expect(response.status, traceparent).toBe(200);
      expect(traceparentOf(response).traceId, traceparent).not.toBe(clientTrace);
      const sent = upstream.requests.at(-1)!.headers;
      expect((sent.traceparent as string).split('-')[1], traceparent).toBe(traceparentOf(response).traceId);
      // The tracestate of a trace that was not continued is not handed on.
      expect(sent.tracestate, traceparent).toBeUndefined();
    }
  });

  it('reads OTEL_RESOURCE_ATTRIBUTES; a bad sampler ratio is ignored (ratio 1), and OTEL_TRACES_EXPORTER=none sends nothing', async () => {
    const gateway = await tracedGateway({
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging,team=a%2Cb',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: 'most',
    });
    const response = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.headers.get('traceparent')).toMatch(/-01$/);
    const server = one(await traceOf(traceparentOf(response).traceId), 'POST /v1/chat/completions');
    expect(server.resource).toMatchObject({
      'service.name': 'switchyard',
      'deployment.environment.name': 'staging',
      team: 'a,b',
    });

    const silent = await tracedGateway({ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' });
    const quiet = await chat(silent, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    expect(quiet.status).toBe(200);
    // Past a few batch delays, nothing of its trace arrived (the request log still has it).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.spans.filter((span) => span.traceId === traceparentOf(quiet).traceId)).toEqual([]);
  });

  it('a client trace that is not sampled is not exported, and still logged', async () => {
    const gateway = await tracedGateway();
    const clientTrace = '5bf92f3577b34da6a3ce929d0e0e4736';
    const response = await chat(
      gateway,
      { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] },
      { traceparent: `00-${clientTrace}-00f067aa0ba902b7-00` },
    );
    expect(response.headers.get('traceparent')).toMatch(new RegExp(`^00-${clientTrace}-[0-9a-f]{16}-00$`));
    // A sampled request after it is exported; the unsampled one never is.
    const after = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    await traceOf(traceparentOf(after).traceId);
    expect(receiver.spans.filter((span) => span.traceId === clientTrace)).toEqual([]);
    const id = response.headers.get('x-request-id')!;
    await expect
      .poll(async () => (await json(await gateway.request(`/console/requests/${id}`))).trace_id)
      .toBe(clientTrace);
  });

  it('a retried attempt is its own failed upstream span, and the retry an event of the GenAI span', async () => {
    const gateway = await tracedGateway();
    upstream.setBehaviour({ failure: { type: 'status', status: 503 }, times: 1 });
    const response = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    const spans = await traceOf(traceparentOf(response).traceId);
    const call = one(spans, 'chat svc-large-3-2512');
    const attempts = named(spans, 'POST').sort((a, b) => Number(a.startNanos - b.startNanos));
    expect(attempts).toHaveLength(2);
    expect(attempts.every((attempt) => attempt.parentSpanId === call.spanId)).toBe(true);
    expect(attempts[0]).toMatchObject({ statusCode: ERROR });
    expect(attempts[0].attributes['http.response.status_code']).toBe(503);
    expect(attempts[1].statusCode).not.toBe(ERROR);
    const retry = call.events.find((event) => event.name === 'retry')!;
    expect(retry.attributes).toMatchObject({ 'switchyard.attempt': 2 });
    expect(retry.attributes['switchyard.backoff_ms']).toBeTypeOf('number');
  });

  it('a fallback is an event, and the GenAI span names the provider that answered', async () => {
    const gateway = await tracedGateway();
    upstream.setBehaviour({ failure: { type: 'status', status: 500 } });
    const response = await chat(gateway, { model: 'primary-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    const spans = await traceOf(traceparentOf(response).traceId);
    const call = one(spans, 'chat primary-model');
    expect(call.attributes).toMatchObject({
      'gen_ai.request.model': 'primary-model',
      'gen_ai.response.model': 'backup-model',
      'switchyard.provider.id': 'backup',
    });
    expect(call.events.find((event) => event.name === 'fallback')?.attributes).toMatchObject({
      'switchyard.model': 'backup-model',
      'switchyard.provider.id': 'backup',
    });
    const ports = named(spans, 'POST').map((span) => span.attributes['server.port']);
    expect(ports).toEqual(
      expect.arrayContaining([Number(new URL(upstream.url).port), Number(new URL(backup.url).port)]),
    );
  });

  it('embeddings are an embeddings operation', async () => {
    const gateway = await tracedGateway();
    const response = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'svc-large-3', input: ['one', 'two'] },
    });
    expect(response.status).toBe(200);
    const spans = await traceOf(traceparentOf(response).traceId);
    const call = one(spans, 'embeddings svc-large-3-2512');
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.provider.name': 'openai' });
    expect(call.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(one(spans, 'POST').parentSpanId).toBe(call.spanId);
  });

  it('message contents go on the GenAI span only once an Owner turns content capture on', async () => {
    const gateway = await tracedGateway();
    const ask = () =>
      chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'the words of the user' }] });
    const before = await ask();
    const quiet = one(await traceOf(traceparentOf(before).traceId), 'chat svc-large-3-2512');
    expect(quiet.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(quiet.attributes['gen_ai.output.messages']).toBeUndefined();

    const turnedOn = await gateway.request('/settings/server', { method: 'PATCH', json: { trace_content: true } });
    expect(turnedOn.status).toBe(200);
    expect(await json(turnedOn)).toMatchObject({ trace_content: true, sources: { trace_content: 'console' } });
    const after = await ask();
    const told = one(await traceOf(traceparentOf(after).traceId), 'chat svc-large-3-2512');
    expect(JSON.parse(told.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'the words of the user' }] },
    ]);
    expect(JSON.parse(told.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'the words of the user' }], finish_reason: 'stop' },
    ]);
  });
});

describe('a collector that does not answer costs the request nothing', () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('a closed port: requests answer, and the lost spans are counted on /metrics', async () => {
    const gateway = await useGateway({
      config: upstreamConfig(upstream),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, ...QUICK_EXPORT },
    });
    for (let i = 0; i < 3; i++) {
      const response = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
      expect(response.status).toBe(200);
    }
    await expect
      .poll(
        async () => {
          const text = await (await gateway.request('/metrics')).text();
          return Number(/^switchyard_trace_spans_dropped_total (\d+)/m.exec(text)?.[1] ?? 0);
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBeGreaterThan(0);
  });

  it('a collector that never answers: requests answer, streamed ones too', async () => {
    receiver.setMode('hang');
    const gateway = await tracedGateway();
    for (let i = 0; i < 3; i++) {
      const plain = await chat(gateway, { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] });
      expect(plain.status).toBe(200);
      const streamed = await chat(gateway, {
        model: 'svc-large-3',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      expect((await readSse(streamed)).at(-1)).toBe('[DONE]');
      // Past the batch delay, so exports to the hanging collector are under way.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  });
});
