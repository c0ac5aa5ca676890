import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage, proseLines } from '../support/draw-text.js';
import { filesOnRequestPath } from '../support/request-path-files.js';
import { startFakeUpstream } from '../support/fake-upstream.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';

/** Today's counts (ARCHITECTURE.md lists the files): the test fails when a path grows. */
const CHAT_PATH_FILES = 49;
const OCR_PATH_FILES = 68;
/**
 * Issue 33's limits, on each request's own files: those the other request does not run. The files
 * both run (the http/ hooks, keys, billing, tracing, metrics, the route runner, the request log and
 * the store) are the pipeline every billed request shares, counted once, in `SHARED_FILES`.
 */
const CHAT_OWN_FILES = 25;
const OCR_OWN_FILES = 35;
const SHARED_FILES = 35;

async function expectOk(response: Response): Promise<void> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

let chat: string[];
let ocr: string[];
const folder = mkdtempSync(join(tmpdir(), 'switchyard-path-'));
const dataDir = (name: string) => {
  mkdirSync(join(folder, name));
  return join(folder, name);
};
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  const upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  try {
    chat = await filesOnRequestPath(dataDir('chat'), upstreamConfig(upstream), async (gateway) =>
      expectOk(
        await gateway.request('/v1/chat/completions', {
          method: 'POST',
          json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'hello there' }] },
        }),
      ),
    );
  } finally {
    await upstream.close();
  }
  const page = await drawTextImage(proseLines(22, 60, 40, 3), { width: 900, height: 300 });
  const document_url = `data:image/png;base64,${page.image.toString('base64')}`;
  ocr = await filesOnRequestPath(dataDir('ocr'), {}, async (gateway) =>
    expectOk(
      await gateway.request('/v1/ocr', {
        method: 'POST',
        json: { model: 'svc-ocr-3', document: { type: 'image_url', image_url: document_url } },
      }),
    ),
  );
}, 60_000);

const without = (files: string[], others: string[]) => files.filter((file) => !others.includes(file));

describe('the files one request runs through (built gateway, V8 coverage)', () => {
  it('a plain chat completion on an upstream provider', () => {
    console.log(`chat: ${chat.length} files\n${chat.join('\n')}`);
    expect(chat).toContain('gateway/src/core/chat/chat-service.ts');
    // 55 before the redesign of issue 33; a new file on this path has to earn its place. Traces (issue 34) added
    // five: the server span's hook, the tracing, the span, the GenAI conventions' names and the id pool (54);
    // 50 once app.ts, two body hooks, the host guard and the batch-line lookup were no longer run per request.
    expect(chat.length).toBeLessThanOrEqual(CHAT_PATH_FILES);
  });

  it('an OCR request on the local engine', () => {
    console.log(`ocr: ${ocr.length} files\n${ocr.join('\n')}`);
    expect(ocr).toContain('gateway/src/core/ocr/ocr-service.ts');
    // 77 before the redesign of issue 33; 63 or 64 after it, then traces added five (traced-stage.ts the fifth);
    // 73 with the language models of three sources as one folder (tessdata-folder.ts, looked at on each page);
    // 68 with the shared pipeline's cuts and a block's language found in identify-language.ts.
    expect(ocr.length).toBeLessThanOrEqual(OCR_PATH_FILES);
  });

  it("each request's own files, beyond the pipeline both share", () => {
    const shared = chat.filter((file) => ocr.includes(file));
    console.log(
      `shared: ${shared.length}\n${shared.join('\n')}\nchat's own: ${without(chat, ocr).join(' ')}\nOCR's own: ${without(ocr, chat).join(' ')}`,
    );
    expect(shared).toContain('gateway/src/http/authentication.ts');
    expect(shared.length).toBeLessThanOrEqual(SHARED_FILES);
    expect(without(chat, ocr).length).toBeLessThanOrEqual(CHAT_OWN_FILES);
    expect(without(ocr, chat).length).toBeLessThanOrEqual(OCR_OWN_FILES);
  });
});
