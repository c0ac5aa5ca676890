import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RequestLog,
  redactBody,
  redactHeaders,
  type RequestLogEntry,
} from '../../../src/core/request-log/request-log.js';
import { openDatabase } from '../../../src/store/database.js';
import { RequestLogRepository } from '../../../src/store/request-log-repository.js';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

const FREE_FORM_ADMIN_KEY = 'correct-horse-battery-staple-42';
let gateway: TestGateway | undefined;
let upstream: FakeUpstream | undefined;

describe('redaction for the request log', () => {
  it('hides key-ish fields whatever their format, bearer credentials and known secrets', () => {
    const body = JSON.stringify({
      api_key: 'plain-words',
      nested: { token: 'abc', password: 'hunter2', Secret: 12345 },
      apiKey: 'x',
      key: 'k-free',
      max_tokens: 10,
      note: 'see correct-horse-battery-staple-42 here',
    });
    const out = redactBody(body, 4096, [FREE_FORM_ADMIN_KEY]);
    for (const secret of ['plain-words', '"abc"', 'hunter2', '12345', '"x"', 'k-free', FREE_FORM_ADMIN_KEY])
      expect(out).not.toContain(secret);
    expect(JSON.parse(out)).toMatchObject({ max_tokens: 10, api_key: '[redacted]', nested: { token: '[redacted]' } });
    expect(redactBody('Authorization: Bearer anything-goes')).toBe('Authorization: Bearer [redacted]');
    expect(redactBody('?api_key=zzz&x=1')).toBe('?api_key=[redacted]&x=1');
  });

  it('reads member names, known secrets and patterns in decoded form, whatever JSON escapes spell them', () => {
    const body =
      '{"x\\u002dapi\\u002dkey":"dash-escaped","\\u0074oken":"t-escaped","pass\\u0077ord":"w-escaped","api\\u005Fkey":"underscore-escaped","note":"sk\\u002dproj\\u002dabcdefghijkl and Bearer\\u0020opaque-credential","said":"correct\\u002dhorse-battery-staple-42","path":"a\\/b"}';
    // Still JSON: the escapes only spell characters.
    expect(JSON.parse(body)['x-api-key']).toBe('dash-escaped');
    const out = redactBody(body, 4096, [FREE_FORM_ADMIN_KEY]);
    for (const secret of [
      'dash-escaped',
      't-escaped',
      'w-escaped',
      'underscore-escaped',
      'abcdefghijkl',
      'opaque-credential',
      'battery-staple',
    ])
      expect(out).not.toContain(secret);
    expect(JSON.parse(out)).toMatchObject({
      'x-api-key': '[redacted]',
      token: '[redacted]',
      password: '[redacted]',
      api_key: '[redacted]',
      path: 'a/b',
    });
    // An escaped backslash followed by "u002d" is text, not an escape, and stays as it was.
    expect(redactBody('{"note":"C:\\\\u002dkey"}')).toBe('{"note":"C:\\\\u002dkey"}');
    expect(redactBody('{"quote":"\\u0022","tab":"\\u0009"}')).toBe('{"quote":"\\u0022","tab":"\\u0009"}');
  });

  it('redacts a secret cut off by the size cap', () => {
    const body = `{"pad":"${'a'.repeat(4000)}","password":"${'p'.repeat(500)}"}`;
    expect(redactBody(body, 4096)).not.toMatch(/p{20}/);
  });

  it('hides every credential header whatever its value', () => {
    const headers = redactHeaders({
      authorization: 'Token free-form',
      'x-api-key': 'whatever',
      'x-upstream-token': 't',
      cookie: 'a=b',
      'user-agent': 'curl/8',
    });
    expect(headers).toEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-upstream-token': '[redacted]',
      cookie: '[redacted]',
      'user-agent': 'curl/8',
    });
  });
});

describe('the request log', () => {
  it('never stores a free-form admin key or a provider key, in headers or bodies', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({
      adminKey: FREE_FORM_ADMIN_KEY,
      config: { ...upstreamConfig(upstream), server: { request_log_bodies: true } },
    });
    await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: {
        model: 'svc-large-3',
        messages: [{ role: 'user', content: `my key is ${FREE_FORM_ADMIN_KEY}` }],
        api_key: 'also-free-form',
      },
    });
    await gateway.request('/v1/models', { headers: { 'x-api-key': FREE_FORM_ADMIN_KEY } });
    const log = await json(await gateway.request('/console/requests?limit=10'));
    expect(log.data).toHaveLength(2);
    const text = JSON.stringify(log);
    expect(text).not.toContain(FREE_FORM_ADMIN_KEY);
    expect(text).not.toContain('also-free-form');
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(log.data[1].request_headers.authorization).toBe('[redacted]');
    expect(log.data[0].request_headers['x-api-key']).toBe('[redacted]');
    expect(log.data[1].request_body).toContain('my key is [redacted]');
  });

  it('never stores the key of a provider added in the console after the log has been written', async () => {
    upstream = await useFakeUpstream();
    const gateway = await useGateway({ config: { ...upstreamConfig(upstream), server: { request_log_bodies: true } } });
    const said = (text: string) =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: text }] },
      });
    await said('before');
    expect(
      (
        await gateway.request('/settings/providers', {
          method: 'POST',
          json: { id: 'added', type: 'openai', base_url: upstream.url, api_key: 'sk-added-in-console-42' },
        })
      ).status,
    ).toBe(200);
    await said('the new key is sk-added-in-console-42');
    const text = JSON.stringify(await json(await gateway.request('/console/requests?limit=10')));
    expect(text).toContain('the new key is [redacted]');
    expect(text).not.toContain('sk-added-in-console-42');
  });

  it('names the requested model on failed rows, opens one entry by id and filters', async () => {
    gateway = await useGateway();
    const failed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(failed.status).toBe(404);
    await gateway.request('/v1/models', { headers: { 'x-switchyard-client': 'console' } });
    const id = failed.headers.get('x-request-id');

    const entry = await json(await gateway.request(`/console/requests/${id}`));
    expect(entry).toMatchObject({
      id,
      status: 404,
      model: 'no-such-model',
      client: null,
      path: '/v1/chat/completions',
    });
    expect((await gateway.request('/console/requests/req_nope')).status).toBe(404);

    const all = await json(await gateway.request('/console/requests'));
    expect(all.data.map((e: { client: string | null }) => e.client)).toEqual(['console', null]);
    const real = await json(await gateway.request('/console/requests?exclude_console=true'));
    expect(real.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await json(await gateway.request('/console/requests?status=4xx'))).data).toHaveLength(1);
    expect((await json(await gateway.request('/console/requests?status=200&path=/models'))).data).toHaveLength(1);
    expect((await json(await gateway.request('/console/requests?model=no-such-model'))).data).toHaveLength(1);
    expect((await gateway.request('/console/requests?status=abc')).status).toBe(422);
  });

  it("leaves the console's own reads out of the account's usage, but counts its playground calls", async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({ config: upstreamConfig(upstream) });
    const console_ = { 'x-switchyard-client': 'console' };
    for (let i = 0; i < 3; i++) await gateway.request('/v1/models', { headers: console_ });
    await gateway.request('/v1/chat/completions', {
      method: 'POST',
      headers: console_,
      json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }] },
    });
    await gateway.request('/v1/models');
    const usage = await json(await gateway.request('/account/usage', { headers: { 'x-api-key': ADMIN_KEY } }));
    expect(usage.usage.total_requests).toBe(2);
  });
});

describe('the request log across restarts', () => {
  it('is still there after the gateway restarts on the same data folder', async () => {
    gateway = await useGateway();
    const failed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'kept-model', messages: [] },
    });
    const id = failed.headers.get('x-request-id');
    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await useGateway({ dataDir });
    const log = await json(await gateway.request('/console/requests'));
    expect(log.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(log.data.find((e: { id: string }) => e.id === id)).toMatchObject({
      model: 'kept-model',
      path: '/v1/chat/completions',
    });
    expect((await gateway.request(`/console/requests/${id}`)).status).toBe(200);
  });

  it('drops entries older than the retention on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-log-'));
    const db = await openDatabase({ dataDir: dir });
    try {
      const store = new RequestLogRepository(db);
      const entry = (id: string, time: number): RequestLogEntry => ({
        id,
        time,
        method: 'GET',
        path: '/v1/models',
        status: 200,
        latency_ms: 1,
        key_prefix: null,
        model: null,
        prompt_tokens: null,
        completion_tokens: null,
        cost: null,
        client: null,
      });
      const now = Date.UTC(2026, 10, 24);
      await store.insertMany([entry('old', now - 3 * 86_400_000), entry('recent', now - 3_600_000)]);
      const log = new RequestLog(100, { store, retentionDays: 2 });
      await log.load();
      expect(log.recent(10).map((e) => e.id)).toEqual(['recent', 'old']);
      log.add(entry('new', now));
      await log.flush(now);
      expect((await store.recent(10)).map((e) => e.id)).toEqual(['new', 'recent']);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failed requests in the request log', () => {
  it('keeps the error code and message of every failure, bodies off, in the list and the detail', async () => {
    upstream = await useFakeUpstream();
    gateway = await useGateway({ config: upstreamConfig(upstream) });
    const chat = (extra: Record<string, unknown> = {}) =>
      gateway!.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hello there friend' }], ...extra },
      });

    const invalid = await chat({ temperature: 9 });
    expect(invalid.status).toBe(422);
    const invalidBody = await json(invalid);
    upstream.setBehaviour({ failure: { type: 'status', status: 500 }, times: 5 });
    const badGateway = await chat();
    expect(badGateway.status).toBe(502);
    const badGatewayBody = await json(badGateway);
    upstream.setBehaviour({ failure: { type: 'cut_mid_stream', afterFrames: 2 }, times: 5 });
    const stream = await chat({ stream: true });
    expect(stream.status).toBe(200);
    const frames = await stream.text();
    expect(frames).toContain('"error"');
    upstream.setBehaviour(null);
    const ok = await chat();
    expect(ok.status).toBe(200);

    const log = await json(await gateway.request('/console/requests?limit=10'));
    const byId = (response: Response) =>
      log.data.find((entry: { id: string }) => entry.id === response.headers.get('x-request-id'));
    expect(byId(invalid)).toMatchObject({
      status: 422,
      error_code: invalidBody.code,
      error_message: invalidBody.message,
    });
    expect(byId(invalid).error_message).toContain('temperature');
    expect(byId(badGateway)).toMatchObject({
      status: 502,
      error_code: badGatewayBody.code,
      error_message: badGatewayBody.message,
    });
    expect(byId(stream)).toMatchObject({
      status: 200,
      error_code: expect.any(String),
      error_message: expect.any(String),
    });
    expect(byId(ok)).not.toHaveProperty('error_code');
    expect(byId(ok)).not.toHaveProperty('error_message');
    // Bodies are off: the failure is told all the same, and nothing else of the body is kept.
    expect(byId(invalid)).not.toHaveProperty('response_body');

    const detail = await json(await gateway.request(`/console/requests/${badGateway.headers.get('x-request-id')}`));
    expect(detail).toMatchObject({ error_code: badGatewayBody.code, error_message: badGatewayBody.message });
  });

  it('redacts the secrets an error message quotes', async () => {
    gateway = await useGateway();
    const failed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: `sk-${'a'.repeat(30)}`, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(failed.status).toBe(404);
    const entry = await json(await gateway.request(`/console/requests/${failed.headers.get('x-request-id')}`));
    expect(entry.error_code).toBe('model_not_found');
    expect(entry.error_message).not.toContain('a'.repeat(30));
  });
});
