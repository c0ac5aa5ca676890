import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hubUnreachable } from '../../../src/core/local-models/hub-client.js';
import { startFakeHub } from '../../support/fake-hub.js';
import { json } from '../../support/start-gateway.js';
import { closeAfterTest, useGateway } from '../../support/use-resources.js';

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function searchWith(endpoint: string) {
  const gateway = await useGateway({ env: { HF_ENDPOINT: endpoint } });
  const answer = await gateway.request('/v1/local-models/search?q=qwen');
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await json(answer) };
}

describe('hub errors say what happened', () => {
  it('a DNS failure says so, not "retry after 1 s", and points to a file on this computer', async () => {
    // .invalid never resolves (RFC 6761).
    const { status, retryAfter, body } = await searchWith('http://hub.invalid');
    expect(status).toBe(502);
    expect(retryAfter).toBe('30');
    expect(body).toMatchObject({ object: 'error', code: 'hub_unreachable' });
    expect(body.message).toMatch(
      /^The model hub's address hub\.invalid could not be resolved \(DNS failure, (ENOTFOUND|EAI_AGAIN)\): this computer may be offline, or HF_ENDPOINT is wrong\. Without the hub, use a \.gguf file already on this computer/,
    );
  });

  it('a refused connection says so', async () => {
    const port = await refusedPort();
    const { status, retryAfter, body } = await searchWith(`http://127.0.0.1:${port}`);
    expect(status).toBe(502);
    expect(retryAfter).toBe('30');
    expect(body.message).toMatch(/^The model hub at http:\/\/127\.0\.0\.1:\d+ refused the connection \(ECONNREFUSED\)/);
  });

  it('a TLS failure and a timeout say so (the socket errors undici wraps in cause)', () => {
    const tls = hubUnreachable(
      'https://hub.example',
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      }),
    );
    expect(tls.message).toMatch(
      /^The TLS connection to the model hub at hub\.example failed \(DEPTH_ZERO_SELF_SIGNED_CERT\): its certificate is not trusted here/,
    );
    const slow = hubUnreachable(
      'https://hub.example',
      Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
    );
    expect(slow.message).toMatch(/^The model hub at hub\.example did not answer in time \(UND_ERR_CONNECT_TIMEOUT\)/);
    expect(slow).toMatchObject({ status: 502, code: 'hub_unreachable', retryAfter: 30 });
  });

  it('a gated repository (401 from the hub) asks for HF_TOKEN, a missing file is a 404 naming it', async () => {
    const hub = closeAfterTest(await startFakeHub());
    hub.addRepo('acme/gated', { 'model.gguf': Buffer.from('GGUF') }, { gatedToken: 'hf_secret' });
    const gateway = await useGateway({ env: { HF_ENDPOINT: hub.url } });
    const gated = await gateway.request('/v1/local-models/downloads', {
      method: 'POST',
      json: { repo: 'acme/gated', file: 'model.gguf' },
    });
    expect(gated.status).toBe(403);
    expect((await json(gated)).message).toMatch(/set HF_TOKEN to a token that may read it/);
    hub.addRepo('acme/open', { 'model.gguf': Buffer.from('GGUF') });
    const missing = await gateway.request('/v1/local-models/downloads', {
      method: 'POST',
      json: { repo: 'acme/open', file: 'other.gguf' },
    });
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ code: 'hub_not_found' });
  });
});
