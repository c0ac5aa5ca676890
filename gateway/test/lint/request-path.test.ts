import { describe, expect, it } from 'vitest';
import { drawTextImage, proseLines } from '../support/draw-text.js';
import { filesOnRequestPath } from '../support/request-path-files.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useTempDir } from '../support/use-resources.js';

async function expectOk(response: Response): Promise<void> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

describe('the files one request runs through (built gateway, V8 coverage)', () => {
  it('a plain chat completion on an upstream provider', async () => {
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const files = await filesOnRequestPath(useTempDir('switchyard-path-'), upstreamConfig(upstream), async (gateway) =>
      expectOk(
        await gateway.request('/v1/chat/completions', {
          method: 'POST',
          json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hello there' }] },
        }),
      ),
    );
    console.log(`chat: ${files.length} files\n${files.join('\n')}`);
    expect(files.length).toBeGreaterThan(0);
  });

  it('an OCR request on the local engine', async () => {
    const page = await drawTextImage(proseLines(22, 60, 40, 3), { width: 900, height: 300 });
    const document_url = `data:image/png;base64,${page.image.toString('base64')}`;
    const files = await filesOnRequestPath(useTempDir('switchyard-path-'), {}, async (gateway) =>
      expectOk(
        await gateway.request('/v1/ocr', {
          method: 'POST',
          json: { model: 'svc-ocr-3', document: { type: 'image_url', image_url: document_url } },
        }),
      ),
    );
    console.log(`ocr: ${files.length} files\n${files.join('\n')}`);
    expect(files.length).toBeGreaterThan(0);
  });
});
