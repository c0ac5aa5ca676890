import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { readSse } from '../../support/sse.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

// Under a second: undici checks longer timeouts only once a second.
const timeouts = { connect: 1000, first_byte: 900, idle: 900 };

/** A model on one upstream with a fallback model on another, both retried three times. */
function deadlineConfig(upstream: FakeUpstream, backup: FakeUpstream, deadlineMs: number, modelDeadlineMs?: number) {
  return {
    server: { request_deadline_ms: deadlineMs },
    providers: [
      {
        id: 'upstream',
        type: 'openai',
        base_url: upstream.url,
        api_key: UPSTREAM_KEY,
        timeouts,
        breaker: { failure_threshold: 100 },
      },
      {
        id: 'backup',
        type: 'openai',
        base_url: backup.url,
        api_key: UPSTREAM_KEY,
        timeouts,
        breaker: { failure_threshold: 100 },
      },
    ],
    models: [
      {
        id: 'primary-model',
        provider: 'upstream',
        upstream_model: 'primary',
        capabilities: ['chat'],
        fallbacks: ['backup-model'],
        max_retries: 3,
        ...(modelDeadlineMs ? { request_deadline_ms: modelDeadlineMs } : {}),
      },
      { id: 'backup-model', provider: 'backup', upstream_model: 'backup', capabilities: ['chat'], max_retries: 3 },
    ],
  };
}

const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'primary-model',
  messages: [{ role: 'user', content: 'one two three four five six' }],
  ...extra,
});

describe('one overall deadline per request', () => {
  let upstream: FakeUpstream;
  let backup: FakeUpstream;
  let gateway: TestGateway;

  it('a hanging upstream, its retries and a fallback that also hangs end at the deadline with 504 and Retry-After, the upstream call aborted', async () => {
    upstream = await useFakeUpstream();
    backup = await useFakeUpstream();
    // Each route: three connection resets (retried after 0.1, 0.2 and 0.4 s of backoff), then a hang
    // until the 0.9 s first-byte timeout (not retried: it suggests waiting 5 s). Without a deadline, 3.2 s.
    gateway = await useGateway({ config: deadlineConfig(upstream, backup, 2_000) });
    expect((await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() })).status).toBe(200);
    upstream.requests.length = 0;
    const resetThenHang = [
      { failure: { type: 'reset_connection' as const }, times: 3 },
      { failure: { type: 'hang_before_headers' as const } },
    ];
    upstream.setBehaviour(resetThenHang);
    backup.setBehaviour(resetThenHang);

    const started = Date.now();
    const response = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'error',
      type: 'upstream_error',
      code: 'request_deadline_exceeded',
      param: null,
    });
    expect(body.message).toContain('2 s');
    expect(elapsed).toBeGreaterThanOrEqual(1_950);
    expect(elapsed).toBeLessThan(2_700);
    // Every attempt was cut, the last one by the deadline: none is left hanging on an upstream.
    const attempts = [...upstream.requests, ...backup.requests];
    expect(upstream.requests).toHaveLength(4);
    expect(backup.requests.length).toBeGreaterThanOrEqual(1);
    await Promise.all(attempts.map((r) => r.settled));
    expect(attempts.every((r) => r.aborted)).toBe(true);
  });

  it("a model's own request_deadline_ms overrides the server's", async () => {
    upstream = await useFakeUpstream();
    backup = await useFakeUpstream();
    // 0.5 s against the 0.9 s first-byte timeout: a margin a busy machine's late timers do not eat.
    gateway = await useGateway({ config: deadlineConfig(upstream, backup, 60_000, 500) });
    upstream.setBehaviour({ failure: { type: 'hang_before_headers' } });
    backup.setBehaviour({ failure: { type: 'hang_before_headers' } });
    const started = Date.now();
    const response = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    expect(response.status).toBe(504);
    expect((await json(response)).message).toContain('0.5 s');
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(backup.requests).toHaveLength(0);
  });

  it('covers a non-streamed answer until it is complete, but not a stream that has started', async () => {
    upstream = await useFakeUpstream();
    backup = await useFakeUpstream();
    gateway = await useGateway({ config: deadlineConfig(upstream, backup, 1_000) });
    // JSON in two halves, each after 600 ms: the body would end at 1.2 s, after the deadline. (The gaps
    // stay 300 ms under the 0.9 s idle timeout: at 800 ms a late timer on a busy machine let that
    // timeout fire first and the fallback answer 200.) The fallback is as slow: when the fake's own
    // timer is 300 ms late, the first-byte timeout hands the request to it, and it must not answer in time either.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 600 } });
    backup.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 600 } });
    const slowJson = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat() });
    expect(slowJson.status).toBe(504);
    expect((await json(slowJson)).code).toBe('request_deadline_exceeded');

    // Seven SSE frames 400 ms apart (under the 900 ms idle timeout): the stream starts in time and runs on past the deadline.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 } });
    const stream = await gateway.request('/v1/chat/completions', { method: 'POST', json: chat({ stream: true }) });
    expect(stream.status).toBe(200);
    const events = await readSse(stream);
    expect(events.at(-1)).toBe('[DONE]');
    const text = (events.slice(0, -1) as { choices: { delta: { content?: string } }[] }[])
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe('one two three four five six');
  });
});
