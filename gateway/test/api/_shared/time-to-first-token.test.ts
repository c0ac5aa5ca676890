import { describe, expect, it } from 'vitest';
import { json, type Json } from '../../support/start-gateway.js';
import { upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

const model = 'svc-large-3';
const messages = [{ role: 'user', content: 'one two three' }];

describe('time to first token', () => {
  it("is logged as ttft_ms for streamed chat, completions, responses and conversations, from the first content rather than a stream's opening events, and never for a whole answer", async () => {
    const upstream = await useFakeUpstream();
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    // The upstream waits this long before each frame: no content can leave the gateway sooner.
    const delayMs = 150;
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs } });
    const calls: [id: string, path: string, body: Json][] = [
      ['chat-streamed', '/v1/chat/completions', { model, messages, stream: true }],
      ['chat-whole', '/v1/chat/completions', { model, messages }],
      ['completion-streamed', '/v1/completions', { model, prompt: 'one two three', stream: true }],
      ['response-streamed', '/v1/responses', { model, input: 'one two three', stream: true }],
      // Its conversation.response.started leaves before the upstream has sent anything.
      ['conversation-streamed', '/v1/conversations', { model, inputs: 'one two three', stream: true }],
    ];
    for (const [id, path, body] of calls) {
      const response = await gateway.request(path, { method: 'POST', json: body, headers: { 'x-request-id': id } });
      expect(response.status, id).toBe(200);
      await response.text();
    }

    let entries: Record<string, Json> = {};
    await expect
      .poll(async () => {
        const log = await json(await gateway.request('/console/requests?limit=50'));
        entries = Object.fromEntries((log.data as Json[]).map((entry) => [entry.id, entry]));
        return calls.every(([id]) => id in entries);
      })
      .toBe(true);
    for (const [id] of calls) {
      const entry = entries[id];
      if (id === 'chat-whole') {
        expect(entry.ttft_ms, id).toBeUndefined();
        continue;
      }
      expect(entry.ttft_ms, id).toBeGreaterThanOrEqual(delayMs);
      expect(entry.ttft_ms, id).toBeLessThanOrEqual(entry.latency_ms);
    }
    const detail = await json(await gateway.request('/console/requests/chat-streamed'));
    expect(detail.ttft_ms).toBe(entries['chat-streamed'].ttft_ms);
  });
});
