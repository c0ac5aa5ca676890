import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { ADMIN_KEY, json, type Json, type TestGateway } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;
beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: upstreamConfig(upstream) });
});

async function eventually<T>(read: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('requests the client gives up on', () => {
  it('still reach the request log and the usage ledger when the client disconnects mid-stream', async () => {
    upstream.setBehaviour({ failure: { type: 'hang_mid_stream', afterFrames: 2 }, path: '/v1/chat/completions' });
    const controller = new AbortController();
    const response = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { messages: [{ role: 'user', content: 'one two three four' }], stream: true },
      signal: controller.signal,
      headers: { 'x-request-id': 'left-mid-stream' },
    });
    expect(response.status).toBe(200);
    await response.body!.getReader().read();
    controller.abort();
    await upstream.requests.at(-1)!.settled;

    const entry = await eventually(async () => {
      const log = await json(await gateway.request('/console/requests'));
      return (log.data as Json[]).find((candidate) => candidate.id === 'left-mid-stream');
    });
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      status: 499,
      model: 'svc-large-3-2512',
    });
    // Billed for what was streamed before the client left, not for nothing.
    expect(entry.prompt_tokens).toBeGreaterThan(0);
    expect(entry.completion_tokens).toBeGreaterThan(0);
    expect(entry.cost).toBeGreaterThan(0);
    const usage = await json(
      await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': ADMIN_KEY } }),
    );
    // The console's log reads are not recorded, and this read is recorded after it answers: 1 is the abandoned stream.
    expect(usage.usage.total_requests).toBe(1);
  });
});

describe('headers on streamed responses', () => {
  const COMMON = [
    'x-request-id',
    'x-process-time-ms',
    'x-content-type-options',
    'x-frame-options',
    'referrer-policy',
    'cross-origin-resource-policy',
  ];

  it('a chat stream and the console feed carry every common header', async () => {
    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { messages: [{ role: 'user', content: 'a b' }], stream: true },
    });
    const controller = new AbortController();
    const feed = await gateway.request('/console/requests/stream', { signal: controller.signal });
    try {
      for (const response of [chat, feed]) {
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        for (const header of COMMON) expect(response.headers.get(header), header).toBeTruthy();
      }
      await chat.text();
      expect(new TextDecoder().decode((await feed.body!.getReader().read()).value)).toContain(': connected');
    } finally {
      controller.abort();
    }
  });
});
