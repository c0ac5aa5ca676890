import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { closeAfterTest, useFakeUpstream, useGateway } from '../../support/use-resources.js';

/** Another service on the machine: serves a PNG at /image.png and redirects /to?url=... anywhere. */
async function startOtherService(): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const url = new URL(request.url ?? '/', 'http://other');
    if (url.pathname === '/to') response.writeHead(302, { location: url.searchParams.get('url') ?? '/' }).end();
    else response.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let upstream: FakeUpstream;
let other: Awaited<ReturnType<typeof startOtherService>>;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY, images: 'url' });
  other = closeAfterTest(await startOtherService());
});

const imagesConfig = (server: Record<string, unknown> = {}) => ({
  server,
  providers: [{ id: 'painter', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY }],
  models: [
    {
      id: 'image-model',
      provider: 'painter',
      upstream_model: 'paint',
      capabilities: ['image_generation'],
      image_sizes: ['8x8'],
    },
  ],
});

/** The upstream answers the next generation with an image at `url`. */
function answerWithImageAt(url: string): void {
  upstream.setBehaviour({
    path: '/v1/images/generations',
    times: 1,
    failure: { type: 'status', status: 200, body: { created: 1, data: [{ url }] } },
  });
}

const generate = (gateway: TestGateway) =>
  gateway.request('/v1/images/generations', {
    method: 'POST',
    json: { model: 'image-model', prompt: 'a leaf', size: '8x8' },
  });

async function expectRefused(gateway: TestGateway, host: string): Promise<void> {
  const response = await generate(gateway);
  const body = await json(response);
  expect({ status: response.status, body }).toMatchObject({
    status: 502,
    body: { object: 'error', type: 'upstream_error', code: 'upstream_url_not_allowed' },
  });
  expect(body.message).toContain('"painter"');
  expect(body.message).toContain(host);
  expect(body.message).toMatch(/server\.url_fetch_allow/);
}

describe('image URLs an upstream answers with go through the URL policy', () => {
  it("fetches an image on the provider's own origin, even on loopback", async () => {
    const gateway = await useGateway({ config: imagesConfig() });
    const response = await generate(gateway);
    expect(response.status).toBe(200);
    expect(
      upstream.requests.map((request) => `${request.method} ${request.path.replace(/\/files\/.*/, '/files/…')}`),
    ).toEqual(['POST /v1/images/generations', 'GET /files/…']);
  });

  it('refuses another loopback port, a private address and the metadata address, without connecting', async () => {
    const gateway = await useGateway({ config: imagesConfig() });
    answerWithImageAt(`http://127.0.0.1:${other.port}/image.png`);
    await expectRefused(gateway, `127.0.0.1:${other.port}`);
    answerWithImageAt(`http://localhost:${other.port}/image.png`);
    await expectRefused(gateway, `localhost:${other.port}`);
    answerWithImageAt('http://10.1.2.3/image.png');
    await expectRefused(gateway, '10.1.2.3');
    answerWithImageAt('http://169.254.169.254/latest/meta-data/');
    await expectRefused(gateway, '169.254.169.254');
    expect(other.hits).toEqual([]);
  });

  it('fetches an address server.url_fetch_allow names, and checks every redirect again', async () => {
    const gateway = await useGateway({ config: imagesConfig({ url_fetch_allow: [`127.0.0.1:${other.port}`] }) });
    answerWithImageAt(`http://127.0.0.1:${other.port}/image.png`);
    expect((await generate(gateway)).status).toBe(200);

    const elsewhere = await startOtherService();
    try {
      answerWithImageAt(
        `http://127.0.0.1:${other.port}/to?url=${encodeURIComponent(`http://127.0.0.1:${elsewhere.port}/image.png`)}`,
      );
      await expectRefused(gateway, `127.0.0.1:${elsewhere.port}`);
      expect(elsewhere.hits).toEqual([]);
    } finally {
      await elsewhere.close();
    }
    expect(other.hits).toEqual([
      '/image.png',
      `/to?url=${encodeURIComponent(`http://127.0.0.1:${elsewhere.port}/image.png`)}`,
    ]);
  });
});
