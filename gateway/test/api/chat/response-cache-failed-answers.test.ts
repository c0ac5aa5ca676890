import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { closeAfterTest, useFakeUpstream, useGateway } from '../../support/use-resources.js';
import { cacheConfig, CACHED, chat } from '../../support/response-cache-config.js';
import { upstreamConfig } from '../../support/upstream-config.js';

/**
 * An upstream whose every chat answer failed in the body (`finish_reason: "error"`, as Mistral's API
 * and llama.cpp report a generation that broke off), whole or streamed: the HTTP exchange succeeds,
 * the answer is a failure, so the response cache must not keep it.
 */
async function failingUpstream(): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      calls++;
      const body = JSON.parse(raw) as { stream?: boolean };
      const base = { id: `chatcmpl-${calls}`, created: 1, model: 'broken' };
      if (!body.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hal' }, finish_reason: 'error' }],
            usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
          }),
        );
        return;
      }
      const chunk = (choice: Record<string, unknown>) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        chunk({ delta: { role: 'assistant', content: 'Hal' }, finish_reason: null }) +
          chunk({ delta: {}, finish_reason: 'error' }) +
          'data: [DONE]\n\n',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

it('never keeps an answer that failed (finish_reason error), whole or streamed', async () => {
  const upstream = closeAfterTest(await failingUpstream());
  const gateway = await useGateway({
    config: {
      providers: [{ id: 'broken', type: 'openai', base_url: upstream.url, api_key: 'sk-upstream' }],
      models: [{ id: 'cached-chat', provider: 'broken', capabilities: ['chat'], cache: { mode: 'exact', ttl_s: 600 } }],
    },
  });
  for (const stream of [false, true]) {
    const body = { model: 'cached-chat', temperature: 0, stream, messages: [{ role: 'user', content: 'hello' }] };
    const first = await chat(gateway, body);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('"finish_reason":"error"');
    const again = await chat(gateway, body);
    expect(again.headers.get('x-switchyard-cache')).toBe('miss');
    await again.text();
  }
  expect(upstream.calls()).toBe(4);
});

it('never keeps a stream of n choices that ended (without [DONE]) once its first choice finished', async () => {
  const upstream = await useFakeUpstream();
  const gateway = await useGateway({ config: cacheConfig(upstream) });
  const body = { model: CACHED, temperature: 0, n: 2, stream: true, messages: [{ role: 'user', content: 'hello' }] };
  // Choice 0: its role, its one word and its finish; then the body ends before choice 1 begins.
  upstream.setBehaviour({ failure: { type: 'end_mid_stream', afterFrames: 3 }, times: 1 });
  const cut = await chat(gateway, body);
  expect(cut.status).toBe(200);
  const text = await cut.text();
  const again = await chat(gateway, body);
  expect(again.headers.get('x-switchyard-cache')).toBe('miss');
  // The client learnt its answer was cut: an error frame after choice 0's end.
  expect(text).toContain('"finish_reason":"stop"');
  expect(text).toContain('upstream_stream_truncated');
  expect((await again.text()).match(/"finish_reason":"stop"/g)).toHaveLength(2);
  expect((await chat(gateway, body)).headers.get('x-switchyard-cache')).toBe('hit');
});

it("never keeps a fallback model's answer under the requested route's key", async () => {
  const [primary, backup] = [await useFakeUpstream(), await useFakeUpstream()];
  const config = upstreamConfig(primary, { fallbackUpstream: backup });
  const route = config.models.find((model) => model.id === 'primary-model')!;
  route.cache = { mode: 'exact', ttl_s: 600 };
  const gateway = await useGateway({ config });
  const body = { model: 'primary-model', temperature: 0, messages: [{ role: 'user', content: 'hello' }] };
  primary.setBehaviour({ failure: { type: 'status', status: 500 }, times: 1 });
  const fallen = await chat(gateway, body);
  expect(fallen.status).toBe(200);
  expect(fallen.headers.get('x-switchyard-cache')).toBe('miss');
  expect((await json(fallen)).model).toBe('backup-model');
  // The primary is healthy again: it answers, and its own answer is the one kept.
  const healthy = await chat(gateway, body);
  expect(healthy.headers.get('x-switchyard-cache')).toBe('miss');
  expect((await json(healthy)).model).toBe('primary-model');
  const hit = await chat(gateway, body);
  expect(hit.headers.get('x-switchyard-cache')).toBe('hit');
  expect((await json(hit)).model).toBe('primary-model');
});
