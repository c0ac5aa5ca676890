import { describe, expect, it } from 'vitest';
import { drawTextImage, proseLines } from '../support/draw-text.js';
import { filesOnRequestPath } from '../support/request-path-files.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useTempDir } from '../support/use-resources.js';

/** Today's counts (ARCHITECTURE.md lists the files): the test fails when a path grows. */
const CHAT_PATH_FILES = 54;
const OCR_PATH_FILES = 73;

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
    expect(files).toContain('gateway/src/core/chat/chat-service.ts');
    // 55 before the redesign of issue 33; a new file on this path has to earn its place. Traces (issue 34) added
    // five: the server span's hook, the tracing, the span, the GenAI conventions' names and the id pool.
    expect(files.length).toBeLessThanOrEqual(CHAT_PATH_FILES);
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
    expect(files).toContain('gateway/src/core/ocr/ocr-service.ts');
    // 77 before the redesign of issue 33; 63 or 64 after it, then traces added five (traced-stage.ts the fifth);
    // 73 with the language models of three sources as one folder (tessdata-folder.ts, looked at on each page).
    expect(files.length).toBeLessThanOrEqual(OCR_PATH_FILES);
  });
});
