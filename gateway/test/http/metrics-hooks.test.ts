import { describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue, type Sample } from '../support/prometheus-text.js';
import { readSse } from '../support/sse.js';
import { json, type TestGateway } from '../support/start-gateway.js';
import { upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../support/use-resources.js';

async function scrape(gateway: TestGateway): Promise<Sample[]> {
  const response = await gateway.request('/metrics');
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

const messages = [{ role: 'user', content: 'one two three' }];

describe('the GenAI metrics on /metrics', () => {
  it('label a plain and a streamed chat, an embedding, a failure and a fallback by operation, requested and answering model, provider and error type', async () => {
    const upstream = await useFakeUpstream();
    const backup = await useFakeUpstream();
    const gateway = await useGateway({ config: upstreamConfig(upstream, { fallbackUpstream: backup }) });
    const chat = (body: object) => gateway.request('/v1/chat/completions', { method: 'POST', json: body });

    const plain = await chat({ model: 'svc-large-3', messages });
    expect(plain.status).toBe(200);
    const { usage } = await json(plain);
    // Each frame of the stream comes this long after the one before: a lower bound of its first token.
    const delayMs = 100;
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs }, times: 1 });
    const streamed = await chat({ model: 'svc-large-3', messages, stream: true });
    expect((await readSse(streamed)).at(-1)).toBe('[DONE]');
    upstream.setBehaviour(null);
    const embedded = await gateway.request('/v1/embeddings', {
      method: 'POST',
      json: { model: 'svc-large-3', input: 'one two three' },
    });
    expect(embedded.status).toBe(200);
    const embeddingUsage = (await json(embedded)).usage;
    // Every attempt fails (the route retries twice).
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, model: 'my-model' });
    expect((await chat({ model: 'svc-large-3', messages })).status).toBe(502);
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, model: 'primary' });
    expect((await chat({ model: 'primary-model', messages })).status).toBe(200);

    const samples = await scrape(gateway);
    const chatServed = {
      gen_ai_operation_name: 'chat',
      gen_ai_request_model: 'svc-large-3-2512',
      gen_ai_response_model: 'svc-large-3-2512',
      gen_ai_provider_name: 'openai',
      switchyard_provider_id: 'upstream',
    };
    const succeeded = { ...chatServed, error_type: '' };
    expect(sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', succeeded)).toBe(2);
    expect(sampleValue(samples, 'gen_ai_client_operation_duration_seconds_count', succeeded)).toBe(2);
    expect(sampleValue(samples, 'gen_ai_client_token_usage_sum', { ...chatServed, gen_ai_token_type: 'input' })).toBe(
      2 * usage.prompt_tokens,
    );
    expect(sampleValue(samples, 'gen_ai_client_token_usage_sum', { ...chatServed, gen_ai_token_type: 'output' })).toBe(
      2 * usage.completion_tokens,
    );

    // Only the stream has a time to first token and per output token.
    expect(sampleValue(samples, 'gen_ai_server_time_to_first_token_seconds_count', chatServed)).toBe(1);
    expect(sampleValue(samples, 'gen_ai_server_time_to_first_token_seconds_sum', chatServed)).toBeGreaterThanOrEqual(
      delayMs / 1000,
    );
    expect(sampleValue(samples, 'gen_ai_server_time_per_output_token_seconds_count', chatServed)).toBe(1);
    expect(sampleValue(samples, 'gen_ai_server_time_per_output_token_seconds_sum', chatServed)).toBeGreaterThan(0);
    // The conventions' buckets.
    expect(
      sampleValue(samples, 'gen_ai_server_time_per_output_token_seconds_bucket', { ...chatServed, le: '2.5' }),
    ).toBe(1);
    expect(sampleValue(samples, 'gen_ai_client_operation_duration_seconds_bucket', { ...succeeded, le: '81.92' })).toBe(
      2,
    );

    const embeddings = { ...chatServed, gen_ai_operation_name: 'embeddings' };
    expect(
      sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', { ...embeddings, error_type: '' }),
    ).toBe(1);
    expect(sampleValue(samples, 'gen_ai_client_token_usage_sum', { ...embeddings, gen_ai_token_type: 'input' })).toBe(
      embeddingUsage.prompt_tokens,
    );
    expect(
      samples.filter(
        (sample) =>
          sample.name.startsWith('gen_ai_client_token_usage') &&
          sample.labels.gen_ai_token_type === 'output' &&
          sample.labels.gen_ai_operation_name === 'embeddings',
      ),
    ).toEqual([]);
    expect(sampleValue(samples, 'gen_ai_server_time_to_first_token_seconds_count', embeddings)).toBe(0);

    // The failure: no answering model, its error type, and no tokens.
    const failed = { ...chatServed, gen_ai_response_model: '' };
    expect(
      sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', { ...failed, error_type: 'upstream_error' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'gen_ai_client_operation_duration_seconds_count', {
        ...failed,
        error_type: 'upstream_error',
      }),
    ).toBe(1);
    expect(sampleValue(samples, 'gen_ai_client_token_usage_count', { ...failed, gen_ai_token_type: 'input' })).toBe(0);

    // The fallback: asked of one model, answered by another on another provider.
    const fellBack = {
      gen_ai_operation_name: 'chat',
      gen_ai_request_model: 'primary-model',
      gen_ai_response_model: 'backup-model',
      gen_ai_provider_name: 'openai',
      switchyard_provider_id: 'backup',
    };
    expect(sampleValue(samples, 'gen_ai_server_request_duration_seconds_count', { ...fellBack, error_type: '' })).toBe(
      1,
    );
    expect(
      sampleValue(samples, 'gen_ai_client_operation_duration_seconds_count', { ...fellBack, error_type: '' }),
    ).toBe(1);
  });
});
