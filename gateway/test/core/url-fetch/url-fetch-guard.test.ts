import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUrlFetchAllow } from '../../../src/config/url-fetch-allow.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

/** A local web server: serves a PNG at /image.png and redirects /to?url=... anywhere. */
interface SourceServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

let png: Buffer;

async function startSource(): Promise<SourceServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const url = new URL(request.url ?? '/', 'http://source');
    if (url.pathname === '/to') {
      response.writeHead(302, { location: url.searchParams.get('url') ?? '/' }).end();
      return;
    }
    if (url.pathname === '/loop') {
      response.writeHead(301, { location: '/loop' }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let target: SourceServer;
let gateway: TestGateway | undefined;

beforeAll(async () => {
  png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c03' } })
    .png()
    .toBuffer();
  target = await startSource();
});
afterAll(async () => target.close());

const render = (image: string) => gateway!.request('/v1/ocr/render', { method: 'POST', json: { image } });

async function expectRefused(image: string, code = 'url_not_allowed') {
  const response = await render(image);
  const body = await json(response);
  expect({ status: response.status, image, message: body.message, body }).toMatchObject({
    status: 422,
    body: { object: 'error', type: 'invalid_request_error', code, param: 'image' },
  });
  expect(response.headers.get('x-request-id')).toBeTruthy();
  return body;
}

describe('client-given URLs are not fetched from loopback, private or special addresses', () => {
  it('refuses every spelling of loopback and the unspecified address, before connecting', async () => {
    gateway = await useGateway();
    const port = target.port;
    const loopback = [
      `http://127.0.0.1:${port}/image.png`,
      `http://127.0.0.2:${port}/image.png`,
      `http://localhost:${port}/image.png`,
      `http://LocalHost:${port}/image.png`,
      `http://[::1]:${port}/image.png`,
      `http://2130706433:${port}/image.png`,
      `http://0177.0.0.1:${port}/image.png`,
      `http://0x7f000001:${port}/image.png`,
      `http://0x7f.0.0.1:${port}/image.png`,
      `http://127.1:${port}/image.png`,
      `http://[::ffff:127.0.0.1]:${port}/image.png`,
      `http://[::ffff:7f00:1]:${port}/image.png`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/image.png`,
      `http://0.0.0.0:${port}/image.png`,
      `http://0:${port}/image.png`,
      `http://[::]:${port}/image.png`,
      `http://[64:ff9b::7f00:1]:${port}/image.png`,
      `http://[2002:7f00:1::]:${port}/image.png`,
    ];
    for (const url of loopback) await expectRefused(url);
    expect(target.hits).toEqual([]);
  });

  it('refuses private, link-local, CGNAT, multicast and cloud-metadata addresses, naming the reason', async () => {
    gateway = await useGateway();
    const cases: [string, RegExp][] = [
      ['http://10.1.2.3/a.png', /private network/],
      ['http://172.16.0.1/a.png', /private network/],
      ['http://172.31.255.255/a.png', /private network/],
      ['http://192.168.1.1/a.png', /private network/],
      ['http://169.254.169.254/latest/meta-data/', /link-local/],
      ['http://100.64.0.1/a.png', /carrier-grade NAT/],
      ['http://100.100.100.200/a.png', /carrier-grade NAT/],
      ['http://[fc00::1]/a.png', /private network/],
      ['http://[fd00:ec2::254]/a.png', /private network/],
      ['http://[fe80::1]/a.png', /link-local/],
      ['http://224.0.0.1/a.png', /multicast/],
      ['http://[ff02::1]/a.png', /multicast/],
      ['http://255.255.255.255/a.png', /broadcast/],
      ['http://metadata.google.internal/computeMetadata/v1/', /cloud-metadata/],
    ];
    for (const [url, reason] of cases) expect((await expectRefused(url)).message).toMatch(reason);
  });

  it('refuses other schemes in the field and in redirects', async () => {
    gateway = await useGateway({ config: { server: { url_fetch_allow: [`127.0.0.1:${target.port}`] } } });
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/a.png',
      'gopher://127.0.0.1:70/',
      'javascript:alert(1)',
    ])
      await expectRefused(url, 'url_scheme_not_allowed');
    await expectRefused(
      `http://127.0.0.1:${target.port}/to?url=${encodeURIComponent('file:///etc/passwd')}`,
      'url_scheme_not_allowed',
    );
  });

  it('follows redirects itself and checks every hop: an allowed source cannot redirect to a blocked address', async () => {
    const other = await startSource();
    try {
      gateway = await useGateway({ config: { server: { url_fetch_allow: [`127.0.0.1:${target.port}`] } } });
      const allowed = await render(`http://127.0.0.1:${target.port}/image.png`);
      expect(allowed.status).toBe(200);
      expect(await json(allowed)).toMatchObject({
        width: 8,
        height: 6,
        image: expect.stringMatching(/^data:image\/png;base64,/),
      });

      for (const hop of [
        `http://127.0.0.1:${other.port}/image.png`,
        `http://localhost:${other.port}/image.png`,
        `http://[::ffff:127.0.0.1]:${other.port}/image.png`,
        `http://2130706433:${other.port}/image.png`,
        'http://169.254.169.254/latest/meta-data/',
      ]) {
        const body = await expectRefused(`http://127.0.0.1:${target.port}/to?url=${encodeURIComponent(hop)}`);
        expect(body.message).toMatch(/server\.url_fetch_allow/);
      }
      expect(other.hits).toEqual([]);
      // A redirect that stays on the allowed address is followed.
      expect((await render(`http://127.0.0.1:${target.port}/to?url=/image.png`)).status).toBe(200);
      await expectRefused(`http://127.0.0.1:${target.port}/loop`, 'too_many_redirects');
    } finally {
      await other.close();
    }
  });

  it('an allow-list network lets a local source through, on any port', async () => {
    const other = await startSource();
    try {
      gateway = await useGateway({ config: { server: { url_fetch_allow: ['127.0.0.0/8'] } } });
      expect(
        (
          await render(
            `http://127.0.0.1:${target.port}/to?url=${encodeURIComponent(`http://127.0.0.1:${other.port}/image.png`)}`,
          )
        ).status,
      ).toBe(200);
      expect(other.hits).toEqual(['/image.png']);
      // The allow-list names addresses: ::1 is not 127.0.0.0/8, and a private network stays refused.
      await expectRefused(`http://[::1]:${other.port}/image.png`);
      await expectRefused('http://10.0.0.1/image.png');
    } finally {
      await other.close();
    }
  });
});

describe('server.url_fetch_allow', () => {
  it('accepts addresses, address:port and CIDR networks, and refuses anything else at start', () => {
    expect(parseUrlFetchAllow(['127.0.0.1:9000', '[::1]:8080', '10.0.0.0/8', 'fd00::/8', '192.168.1.20'])).toEqual([
      { network: '127.0.0.1/32', port: 9000, source: '127.0.0.1:9000' },
      { network: '::1/128', port: 8080, source: '[::1]:8080' },
      { network: '10.0.0.0/8', port: undefined, source: '10.0.0.0/8' },
      { network: 'fd00::/8', port: undefined, source: 'fd00::/8' },
      { network: '192.168.1.20/32', port: undefined, source: '192.168.1.20' },
    ]);
    for (const bad of [
      'localhost:9000',
      'example.com',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      '10.0.0.0/33',
      '0x7f000001',
    ]) {
      expect(() => parseUrlFetchAllow([bad]), bad).toThrow(/server\.url_fetch_allow/);
    }
  });
});
