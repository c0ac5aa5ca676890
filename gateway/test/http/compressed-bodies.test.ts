import { request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { brotliCompressSync, createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMemberKey, startLatencyProbe } from '../support/latency-probe.js';
import { json, type TestGateway } from '../support/start-gateway.js';
import { upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../support/use-resources.js';

/** A gzipped chat body of `megabytes` MB of one letter (a few tens of KB), made a megabyte at a time so the test process never holds it whole. */
async function gzippedChatOf(megabytes: number): Promise<Buffer> {
  const gzip = createGzip();
  const out = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of gzip) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  const megabyte = Buffer.alloc(2 ** 20, 'a');
  gzip.write('{"model":"svc-large-3","messages":[{"role":"user","content":"');
  for (let i = 0; i < megabytes; i++) if (!gzip.write(megabyte)) await once(gzip, 'drain');
  gzip.end('"}]}');
  return out;
}

/** POSTs a compressed body (node:http: fetch would not send a Content-Encoding it did not make). */
function postCompressed(
  gateway: TestGateway,
  key: string,
  body: Buffer,
  encoding: string,
): Promise<{ status: number; body: { code?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-encoding': encoding,
        'content-length': body.length,
      },
    });
    sent.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('compressed request bodies', () => {
  // First in its file: the probe reports the growth of the process's peak RSS.
  it('30 parallel gzipped chats that inflate to 45 MB each are refused at the inflate cap: 413 stating it, other keys unaffected, memory bounded', async () => {
    const upstream = await useFakeUpstream();
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const member = await createMemberKey(gateway, 'attacker');
    const bomb = await gzippedChatOf(45);
    expect(bomb.length).toBeLessThan(100_000);
    const probe = startLatencyProbe(gateway, await createMemberKey(gateway));

    const answers = await Promise.all(Array.from({ length: 30 }, () => postCompressed(gateway, member, bomb, 'gzip')));
    const report = await probe.stop();

    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: 'inflated_body_too_large' });
      expect(answer.body.message).toContain('4 MB');
      expect(answer.body.message).toContain('server.inflated_body_limit_mb');
    }
    expect(upstream.requests).toHaveLength(0);
    // Before the cap, here: the other key waited 8.2 s, peak RSS grew 2.3 GB, and the chats ended in 504s (about 0.3 s and 125 MB with it).
    expect(report.worstMs).toBeLessThan(1500);
    expect(report.peakRssGrowthMiB).toBeLessThan(300);
  });

  it('a compressed body under the cap is inflated and served, in every encoding the gateway takes', async () => {
    const upstream = await useFakeUpstream();
    const gateway = await useGateway({ config: upstreamConfig(upstream) });
    const chat = Buffer.from(
      JSON.stringify({ model: 'svc-large-3', messages: [{ role: 'user', content: 'hello '.repeat(100_000) }] }),
    );
    for (const [encoding, body] of [
      ['gzip', gzipSync(chat)],
      ['br', brotliCompressSync(chat)],
    ] as const) {
      const answer = await postCompressed(gateway, await createMemberKey(gateway, encoding), body, encoding);
      expect(answer.status).toBe(200);
    }
    expect(upstream.requests).toHaveLength(2);
  });

  it('takes server.inflated_body_limit_mb, and refuses bad data and unknown encodings in the error shape', async () => {
    const upstream = await useFakeUpstream();
    const gateway = await useGateway({
      config: { ...upstreamConfig(upstream), server: { inflated_body_limit_mb: 0.5 } },
    });
    const key = await createMemberKey(gateway);
    const refused = await postCompressed(gateway, key, await gzippedChatOf(1), 'gzip');
    expect(refused).toMatchObject({ status: 413, body: { code: 'inflated_body_too_large' } });
    expect(refused.body.message).toContain('0.5 MB');
    expect(await postCompressed(gateway, key, Buffer.from('not gzip at all'), 'gzip')).toMatchObject({
      status: 400,
      body: { code: 'invalid_compressed_body' },
    });
    expect(await postCompressed(gateway, key, Buffer.from('{}'), 'compress')).toMatchObject({
      status: 415,
      body: { code: 'unsupported_content_encoding' },
    });
    // The body limit itself is stated too.
    const plain = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'a'.repeat(51 * 2 ** 20) }] },
    });
    expect(plain.status).toBe(413);
    expect((await json(plain)).message).toContain('50 MB');
  });
});
