import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { readSse } from '../../support/sse.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: upstreamConfig(upstream) });
});

const post = (path: string, body: Record<string, unknown>) => gateway.request(path, { method: 'POST', json: body });
const messages = [{ role: 'user', content: 'say something' }];
const penalties = { presence_penalty: 0.6, frequency_penalty: -1.5 };

describe('presence_penalty and frequency_penalty', () => {
  it.each([
    ['chat', '/v1/chat/completions', { messages }],
    ['completions', '/v1/completions', { prompt: 'once upon' }],
  ])('reach the upstream on %s, plain and streamed', async (_name, path, body) => {
    const plain = await post(path, { ...body, ...penalties });
    expect(plain.status).toBe(200);
    expect(upstream.requests.at(-1)!.body as Json).toMatchObject({ ...penalties, stream: false });
    const frames = await readSse(await post(path, { ...body, ...penalties, stream: true }));
    expect(frames.at(-1)).toBe('[DONE]');
    expect(upstream.requests.at(-1)!.body as Json).toMatchObject({ ...penalties, stream: true });
  });

  it('are left off the wire when the client does not send them', async () => {
    await post('/v1/chat/completions', { messages, presence_penalty: null });
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent).not.toHaveProperty('presence_penalty');
    expect(sent).not.toHaveProperty('frequency_penalty');
  });

  it.each([
    ['/v1/chat/completions', { messages }, 'presence_penalty'],
    ['/v1/completions', { prompt: 'x' }, 'frequency_penalty'],
  ])('outside [-2, 2] are refused on %s in the error shape, naming the field', async (path, body, field) => {
    const response = await post(path, { ...body, [field]: 3.0 });
    expect(response.status).toBe(422);
    expect(await json(response)).toMatchObject({ object: 'error', param: field });
    expect(upstream.requests).toHaveLength(0);
  });
});
