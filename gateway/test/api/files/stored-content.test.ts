import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => gateway.close());

async function uploadAs(type: string, filename: string, content: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([content], { type }), filename);
  const response = await gateway.request('/v1/files', { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return (await json(response)).id as string;
}

describe('stored files are served as downloads, never as active content of the console origin', () => {
  it.each([
    ['text/html', 'page.html', '<script>alert(document.cookie)</script>', 'application/octet-stream'],
    [
      'image/svg+xml',
      'logo.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'application/octet-stream',
    ],
    ['application/javascript', 'app.js', 'alert(1)', 'application/octet-stream'],
    ['text/javascript', 'app.mjs', 'alert(1)', 'application/octet-stream'],
    ['application/xml', 'feed.xml', '<x/>', 'application/octet-stream'],
    ['application/xhtml+xml', 'page.xhtml', '<html/>', 'application/octet-stream'],
    ['application/x-unknown', 'blob.bin', 'bytes', 'application/octet-stream'],
    ['image/png', 'picture.png', 'png bytes', 'image/png'],
    ['image/jpeg', 'photo.jpg', 'jpeg bytes', 'image/jpeg'],
    ['image/webp', 'photo.webp', 'webp bytes', 'image/webp'],
    ['application/pdf', 'doc.pdf', '%PDF-1.4', 'application/pdf'],
    ['text/plain', 'notes.txt', 'hello', 'text/plain; charset=utf-8'],
    ['application/json', 'data.json', '{}', 'application/json'],
    ['application/jsonl', 'batch.jsonl', '{}\n', 'application/jsonl'],
  ])(
    '%s is served as %s, an attachment, with nosniff and a sandbox policy',
    async (type, filename, content, served) => {
      const id = await uploadAs(type, filename, content);
      const response = await gateway.request(`/v1/files/${id}/content`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(content);
      expect(response.headers.get('content-type')).toBe(served);
      expect(response.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename=("?)${filename.replace('.', '\\.')}\\1(;|$)`),
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toMatch(/^sandbox(;|$)/);
      // The record keeps what the client declared; only the served type is neutralised.
      expect((await json(await gateway.request(`/v1/files/${id}`))).mime_type).toBe(type);
    },
  );
});

describe('Content-Security-Policy of the pages the gateway serves', () => {
  it('/ui/ and its client routes carry a strict policy: own scripts only, no inline script, no framing', async () => {
    for (const path of ['/ui/', '/ui/chat', '/ui/images?tab=generate']) {
      const response = await gateway.request(path, { key: null });
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("default-src 'self'");
      expect(policy, path).toContain("script-src 'self'");
      expect(policy, path).toContain("object-src 'none'");
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
  });

  it('/docs carries a policy that allows only its own scripts, no remote sources (inline styles: Swagger UI sets them)', async () => {
    const response = await gateway.request('/docs/', { key: null });
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/https:|unsafe-eval|upgrade-insecure-requests/);
    expect(policy.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe-inline');
  });
});

describe('the icon browsers ask for on their own', () => {
  it('/favicon.ico is the console icon, needs no key, and stays out of the request log', async () => {
    const response = await gateway.request('/favicon.ico', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain('<svg');
    const logged = (await json(await gateway.request('/console/requests?limit=500'))).data as { path: string }[];
    expect(logged.map((entry) => entry.path)).not.toContain('/favicon.ico');
  });
});
