import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '../../support/prometheus-text.js';
import { readSse } from '../../support/sse.js';
import { json, type Json } from '../../support/start-gateway.js';
import { upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Json;
}

/** A collector's OTLP/HTTP metrics endpoint on a real socket: JSON bodies kept, or (hang) never answered. */
async function startReceiver(mode: 'answer' | 'hang' = 'answer') {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json,
      });
      if (mode === 'hang') return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  receivers.push(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, close };
}

const receivers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((close) => close()));
});

/** OTLP/JSON attributes as a plain object. */
function attributes(list: { key: string; value: Record<string, unknown> }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
}

function metricsNamed(received: Received[], name: string): Json[] {
  return received.flatMap((export_) =>
    (export_.body.resourceMetrics as Json[]).flatMap((resourceMetrics) =>
      (resourceMetrics.scopeMetrics as Json[]).flatMap((scope) =>
        (scope.metrics as Json[]).filter((metric) => metric.name === name),
      ),
    ),
  );
}

const chatBody = { model: 'svc-large-3', messages: [{ role: 'user', content: 'one two three' }] };

describe('the OTLP metrics export', () => {
  it('pushes the GenAI histograms to the collector the standard variables name, as OTLP/JSON with its headers and the service name', async () => {
    const receiver = await startReceiver();
    const upstream = await useFakeUpstream();
    const gateway = await useGateway({
      config: upstreamConfig(upstream),
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=secret%20value',
        OTEL_METRIC_EXPORT_INTERVAL: '100',
        OTEL_SERVICE_NAME: 'gateway-under-test',
      },
    });
    const plain = await gateway.request('/v1/chat/completions', { method: 'POST', json: chatBody });
    const { usage } = await json(plain);
    const streamed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { ...chatBody, stream: true },
    });
    expect((await readSse(streamed)).at(-1)).toBe('[DONE]');

    // Cumulative points: the newest export carries both requests.
    await expect
      .poll(
        () =>
          metricsNamed(receiver.received, 'gen_ai.client.operation.duration').some((metric) =>
            (metric.histogram.dataPoints as Json[]).some((point) => Number(point.count) === 2),
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    const last = receiver.received.at(-1)!;
    expect(last.path).toBe('/v1/metrics');
    expect(last.headers['content-type']).toMatch(/^application\/json/);
    expect(last.headers['x-collector-token']).toBe('secret value');
    const resource = attributes(last.body.resourceMetrics[0].resource.attributes);
    expect(resource['service.name']).toBe('gateway-under-test');

    const served = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'svc-large-3-2512',
      'gen_ai.response.model': 'svc-large-3-2512',
      'gen_ai.provider.name': 'openai',
      'switchyard.provider.id': 'upstream',
    };
    const duration = metricsNamed([last], 'gen_ai.client.operation.duration')[0];
    expect(duration.unit).toBe('s');
    // Cumulative (2), with the conventions' buckets; a success carries no error.type.
    expect(duration.histogram.aggregationTemporality).toBe(2);
    const point = duration.histogram.dataPoints[0];
    expect(attributes(point.attributes)).toEqual(served);
    expect(point.explicitBounds).toEqual([
      0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
    ]);
    expect((point.bucketCounts as (string | number)[]).map(Number).reduce((a, b) => a + b, 0)).toBe(2);

    const tokens = metricsNamed([last], 'gen_ai.client.token.usage')[0];
    expect(tokens.unit).toBe('{token}');
    const output = (tokens.histogram.dataPoints as Json[]).find(
      (candidate) => attributes(candidate.attributes)['gen_ai.token.type'] === 'output',
    );
    expect(Number(output.sum)).toBe(2 * usage.completion_tokens);
    const firstToken = metricsNamed([last], 'gen_ai.server.time_to_first_token')[0];
    expect(Number(firstToken.histogram.dataPoints[0].count)).toBe(1);
    expect(metricsNamed([last], 'http.server.request.duration')).toHaveLength(1);
  });

  it('costs requests nothing when the collector hangs or is gone: they are answered, and the failed exports are counted', async () => {
    const hanging = await startReceiver('hang');
    const gone = await startReceiver();
    await gone.close();
    for (const endpoint of [hanging.url, gone.url]) {
      const upstream = await useFakeUpstream();
      const gateway = await useGateway({
        config: upstreamConfig(upstream),
        env: {
          OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${endpoint}/v1/metrics`,
          OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
          OTEL_METRIC_EXPORT_INTERVAL: '100',
          OTEL_METRIC_EXPORT_TIMEOUT: '100',
        },
      });
      const failures = async () =>
        sampleValue(
          parsePrometheusText(await (await gateway.request('/metrics')).text()),
          'switchyard_otlp_metric_export_failures_total',
        );
      for (let i = 0; i < 5; i++)
        expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chatBody })).status).toBe(200);
      await expect.poll(failures, { timeout: 10_000 }).toBeGreaterThan(1);
      expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chatBody })).status).toBe(200);
      await gateway.close();
    }
    expect(hanging.received.length).toBeGreaterThan(0);
  });
});
