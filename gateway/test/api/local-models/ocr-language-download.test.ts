import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors/gateway-error.js';
import { GithubContents } from '../../../src/core/local-models/github-contents.js';
import { startFakeGithub, type FakeGithub } from '../../support/fake-github.js';
import { makeLanguagePage } from '../../support/language-pages.js';
import { json, startGateway, type Json } from '../../support/start-gateway.js';
import { systemTessdata } from '../../support/system-tessdata.js';

/**
 * Tesseract's language models through the download manager: found on GitHub (tesseract-ocr/tessdata_fast,
 * served here by a fake that speaks GitHub's contents API and raw.githubusercontent.com's Range
 * answers), verified by git blob id, resumed after a dropped connection, read by the OCR engine from
 * its next page on, and removed again. No GitHub is reachable from the test machines.
 */

const tessdata = systemTessdata();
const REPO = 'tesseract-ocr/tessdata_fast';

let github: FakeGithub;
let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  github = await startFakeGithub();
  gateway = await startGateway({ warm: true, env: { GITHUB_API_URL: github.url } });
  // The warm-up: the OCR engine has looked at its models.
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(async () => {
  await gateway.close();
  await github.close();
});

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

async function languages(): Promise<Map<string, Json>> {
  const listed = await json(await gateway.request('/v1/local-models/ocr-languages'));
  return new Map((listed.data as Json[]).map((language) => [language.code, language]));
}

async function downloaded(file: string): Promise<Json> {
  const started = await gateway.request('/v1/local-models/downloads', {
    method: 'POST',
    json: { repo: REPO, file, revision: '4.1.0' },
  });
  expect(started.status).toBe(201);
  const { id } = await json(started);
  let download: Json;
  await expect
    .poll(
      async () => {
        download = await json(await gateway.request(`/v1/local-models/downloads/${id}`));
        return download.status;
      },
      { timeout: 8_000 },
    )
    .toMatch(/^(completed|failed)$/);
  return download;
}

describe('OCR languages from the download manager', () => {
  it('a language not installed is listed as downloadable; one click later (resumed after a drop, verified) the engine reads with it, without a restart', async ({
    skip,
  }) => {
    if (!tessdata) skip();
    // Stand-in bytes: the machine's French model served as Italian's (the test needs a model tesseract loads).
    const model = readFileSync(join(tessdata as string, 'fra.traineddata'));
    github.addFile(REPO, '4.1.0', 'ita.traineddata', model);
    github.dropOnceAt('ita.traineddata', 300_000);
    const page = dataUrl((await makeLanguagePage('ita', 'clean')).image);
    const ocr = () => gateway.request('/v1/ocr', { method: 'POST', json: { image: page, languages: ['it'] } });

    const before = await languages();
    expect(before.get('fra')).toMatchObject({ installed: true, source: 'system' });
    expect(before.get('ita')).toMatchObject({
      name: 'Italian',
      installed: false,
      source: null,
      repo: REPO,
      file: 'ita.traineddata',
      revision: '4.1.0',
    });
    expect(before.get('ita').size_bytes).toBeGreaterThan(1_000_000);
    expect((await json(await ocr())).code).toBe('ocr_language_not_installed');

    const download = await downloaded('ita.traineddata');
    expect(download).toMatchObject({ status: 'completed', bytes_done: model.length, model: 'svc-ocr-3-2512' });
    expect(github.ranges).toEqual([undefined, 'bytes=300000-']);

    expect((await languages()).get('ita')).toMatchObject({ installed: true, source: 'download' });
    const card = (await json(await gateway.request('/v1/models'))).data.find(
      (entry: Json) => entry.id === 'svc-ocr-3-2512',
    );
    expect(card.ocr_languages).toContain('ita');
    const read = await ocr();
    expect(read.status).toBe(200);
    const answer = await json(read);
    expect(answer.pages[0]).toMatchObject({ detected_language: 'ita', languages: ['ita'] });
    expect(answer.text).toMatch(/Dichiarazione Universale dei Diritti Umani/);

    // Listed with the local model files, and deleted like them: the engine no longer has it.
    const files = (await json(await gateway.request('/v1/local-models/files'))).data as Json[];
    expect(files.find((file) => file.name === 'tessdata/ita.traineddata')).toMatchObject({ kind: 'ocr_language' });
    const removed = await gateway.request(`/v1/local-models/files/${encodeURIComponent('tessdata/ita.traineddata')}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    expect((await languages()).get('ita')).toMatchObject({ installed: false });
    expect((await json(await ocr())).code).toBe('ocr_language_not_installed');
  });

  it('a model whose bytes do not match GitHub’s blob id is discarded, never installed', async () => {
    github.addFile(REPO, '4.1.0', 'ell.traineddata', Buffer.alloc(40_000, 7));
    github.corrupt('ell.traineddata');
    const download = await downloaded('ell.traineddata');
    expect(download.status).toBe('failed');
    expect(download.error).toMatch(/git blob id .* does not match/);
    const files = (await json(await gateway.request('/v1/local-models/files'))).data as Json[];
    expect(files.some((file) => file.kind === 'ocr_language')).toBe(false);
  });

  it('only language models of Tesseract’s repositories are taken, and an unknown one is a 404 from GitHub', async () => {
    const start = (file: string) =>
      gateway.request('/v1/local-models/downloads', { method: 'POST', json: { repo: REPO, file, revision: '4.1.0' } });
    for (const file of ['../eng.traineddata', 'script/Latin.traineddata', 'README.md', 'osd.traineddata']) {
      const refused = await start(file);
      expect(refused.status).toBe(422);
      expect(await json(refused)).toMatchObject({ param: 'file' });
    }
    const unknown = await start('tlh.traineddata');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).code).toBe('hub_not_found');
  });

  it('GitHub out of reach is a 502 that names GITHUB_API_URL and the other ways to add a language', async () => {
    const refusal = await new GithubContents('http://127.0.0.1:9')
      .fileInfo(REPO, '4.1.0', 'kor.traineddata')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ status: 502, code: 'hub_unreachable' });
    expect((refusal as GatewayError).message).toMatch(/GITHUB_API_URL.*tesseract-ocr-<lang>/);
  });
});

describe('a page in a language with no model installed', () => {
  it('a Greek page, with no Greek model, says it is Greek and how to add it, and returns no garbage', async ({
    skip,
  }) => {
    if (!tessdata) skip();
    if ((await languages()).get('ell')?.installed) skip();
    const page = dataUrl((await makeLanguagePage('ell', 'clean')).image);
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { model: 'mistral-ocr-latest', document: { type: 'image_url', image_url: page } },
    });
    expect(response.status).toBe(200);
    const [first] = (await json(response)).pages;
    expect(first).toMatchObject({ detected_language: 'ell', detected_script: 'Greek', languages: [] });
    expect(first.markdown.trim()).toBe('');
    expect(first.warnings.join(' ')).toMatch(/ell.*not installed|no OCR model for ell/);
    expect(first.warnings.join(' ')).toMatch(/OCR languages/);
  });
});
