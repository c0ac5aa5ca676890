import { beforeEach, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { json, type TestGateway } from '../support/start-gateway.js';
import { useGateway } from '../support/use-resources.js';

let gateway: TestGateway;
beforeEach(async () => {
  gateway = await useGateway();
});

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

function expectCommonHeaders(response: Response) {
  expect(response.headers.get('x-request-id')).toMatch(/\S+/);
  expect(Number(response.headers.get('x-process-time-ms'))).toBeGreaterThanOrEqual(0);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
}

describe('headers on every response', () => {
  it('carries request id, timing and security headers on success', async () => {
    const response = await gateway.request('/models');
    expect(response.status).toBe(200);
    expectCommonHeaders(response);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('carries them on errors too, in the error shape', async () => {
    const response = await gateway.request('/v1/nowhere');
    expect(response.status).toBe(404);
    expectCommonHeaders(response);
    expect(await json(response)).toMatchObject({
      object: 'error',
      type: 'not_found_error',
      code: 'route_not_found',
      param: null,
    });
  });

  it('keeps a client-sent X-Request-ID unchanged and makes unique ones otherwise', async () => {
    const kept = await gateway.request('/models', { headers: { 'x-request-id': 'trace-42/abc' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42/abc');
    const first = await gateway.request('/models');
    const second = await gateway.request('/models');
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('makes request ids that sort in the order the requests came (the request log is keyed by them)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await gateway.request('/models')).headers.get('x-request-id')!);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{12}[A-Za-z0-9_-]{16}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sends Cache-Control: no-store on /account/* and /transcript, not elsewhere', async () => {
    expect((await gateway.request('/account/me')).headers.get('cache-control')).toBe('no-store');
    expect(
      (await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': 'nope' } })).headers.get(
        'cache-control',
      ),
    ).toBe('no-store');
    expect((await gateway.request('/transcript', { method: 'POST', json: {} })).headers.get('cache-control')).toBe(
      'no-store',
    );
    expect((await gateway.request('/models')).headers.get('cache-control')).toBeNull();
  });

  it('gzips large responses when asked, with Vary: Accept-Encoding, and not small ones', async () => {
    const raw = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const request = httpRequest(
          `${gateway.url}/openapi.json`,
          { headers: { 'accept-encoding': 'gzip' } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          },
        );
        request.on('error', reject);
        request.end();
      },
    );
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(String(raw.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(raw.body).toString('utf8'))).toHaveProperty('openapi');
    const small = await fetch(`${gateway.url}/health/liveness`, { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('error statuses and shape', () => {
  it('400 for malformed JSON', async () => {
    const response = await gateway.request('/account/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      code: 'invalid_json',
    });
  });

  it('415 for a content type the endpoint does not take', async () => {
    const response = await gateway.request('/account/keys', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(response.status).toBe(415);
    expect(await json(response)).toMatchObject({ object: 'error', code: 'unsupported_media_type' });
  });

  it('413 for a body over the configured limit', async () => {
    await gateway.close();
    gateway = await useGateway({ config: { server: { body_limit_mb: 0.01 } } });
    const response = await gateway.request('/account/keys', { method: 'POST', json: { name: 'x'.repeat(20_000) } });
    expect(response.status).toBe(413);
    expect(await json(response)).toMatchObject({ object: 'error', code: 'body_too_large' });
  });

  it('422 naming the field for schema violations', async () => {
    const missing = await gateway.request('/account/keys', { method: 'POST', json: { role: 'owner' } });
    expect(missing.status).toBe(422);
    expect(await json(missing)).toMatchObject({ object: 'error', type: 'invalid_request_error', param: 'name' });
    const wrongType = await gateway.request('/account/keys', {
      method: 'POST',
      json: { name: 'ci', rpm_limit: 'lots' },
    });
    expect(wrongType.status).toBe(422);
    expect((await json(wrongType)).param).toBe('rpm_limit');
  });
});

describe('protection for a gateway on localhost', () => {
  it('rejects a foreign Host (DNS rebinding) and accepts loopback names', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest(`${gateway.url}/status`, { headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
        request.end();
      });
    expect(await status('evil.example.com:8080')).toBe(403);
    expect(await status('localhost:8080')).toBe(200);
    expect(await status('127.0.0.1')).toBe(200);
  });

  it('sends no CORS headers by default and allows configured origins', async () => {
    const closed = await gateway.request('/models', { headers: { origin: 'http://tool.local' } });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    await gateway.close();
    gateway = await useGateway({ config: { server: { cors_origins: ['http://tool.local'] } } });
    const preflight = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://tool.local',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://tool.local');
    const other = await gateway.request('/models', { headers: { origin: 'http://elsewhere.local' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
