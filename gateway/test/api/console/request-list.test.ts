import { describe, expect, it } from 'vitest';
import { json, type Json } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

describe('GET /console/requests', () => {
  it('sorts slowest first on request, and takes a trace id of 32 hex digits only', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const chat = (id: string) =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'x-request-id': id },
        json: { messages: [{ role: 'user', content: 'hi' }] },
      });
    expect((await chat('quick-1')).status).toBe(200);
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, times: 1 });
    expect((await chat('slow-1')).status).toBe(200);
    expect((await chat('quick-2')).status).toBe(200);

    const listed = async (query: string) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const data = (await json(await gateway.request(`/console/requests?${query}`))).data as Json[];
        if (data.length >= 3) return data.map((entry) => entry.id);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the three requests were never logged');
    };
    expect(await listed('path=/v1/chat')).toEqual(['quick-2', 'slow-1', 'quick-1']);
    const slowest = await listed('path=/v1/chat&sort=latency_desc');
    expect(slowest[0]).toBe('slow-1');
    expect(await listed('path=/v1/chat&sort=time_desc')).toEqual(['quick-2', 'slow-1', 'quick-1']);

    for (const bad of ['sort=fastest', 'trace_id=xyz', `trace_id=${'g'.repeat(32)}`]) {
      const refused = await gateway.request(`/console/requests?${bad}`);
      expect(refused.status).toBe(422);
      expect(await json(refused)).toMatchObject({ object: 'error', type: 'invalid_request_error' });
    }
    const none = await json(await gateway.request(`/console/requests?trace_id=${'0'.repeat(32)}`));
    expect(none).toEqual({ object: 'list', data: [] });
  });
});
