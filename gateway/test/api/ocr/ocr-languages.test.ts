import { execFileSync } from 'node:child_process';
import { Mistral } from '@mistralai/mistralai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLanguagePage } from '../../support/language-pages.js';
import { ADMIN_KEY, json, startGateway, type TestGateway } from '../../support/start-gateway.js';

/** POST /v1/ocr in other languages than English: detected by itself, or named with the `languages` extension field. */
let gateway: TestGateway;
let french: Buffer;
let russian: Buffer;

/** The models the machine's tesseract command has (none without the command: the tests that need one are skipped). */
function installedModels(): string[] {
  try {
    const listed = execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return listed.split('\n').map((line) => line.trim());
  } catch {
    return [];
  }
}
const installed = installedModels();
const has = (...languages: string[]) => languages.every((language) => installed.includes(language));

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const ocr = (body: Record<string, unknown>) => gateway.request('/v1/ocr', { method: 'POST', json: body });

beforeAll(async () => {
  gateway = await startGateway({ warm: true });
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
  french = (await makeLanguagePage('fra', 'clean')).image;
  russian = (await makeLanguagePage('rus', 'clean')).image;
});
afterAll(() => gateway.close());

describe('the language of each page', () => {
  it("Mistral's form: a French page says it is French and keeps its accents", async ({ skip }) => {
    if (!has('fra')) skip();
    const response = await ocr({ model: 'svc-ocr-3', document: { type: 'image_url', image_url: dataUrl(french) } });
    expect(response.status).toBe(200);
    const [page] = (await json(response)).pages;
    expect(page).toMatchObject({ detected_language: 'fra', detected_script: 'Latin', languages: ['fra'] });
    expect(page.warnings).toBeUndefined();
    expect(page.markdown).toMatch(/Considérant que la reconnaissance de la dignité/);
  });

  it("SPEC's form: a Russian page named as Russian (ISO 639-1) is read with Russian", async ({ skip }) => {
    if (!has('rus')) skip();
    const response = await ocr({ image: dataUrl(russian), languages: ['ru'], return_bboxes: false });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.pages[0]).toMatchObject({ detected_language: 'rus', detected_script: 'Cyrillic', languages: ['rus'] });
    expect(body.text).toMatch(/Всеобщая декларация прав человека/);
  });

  it('a language that is no code, or has no model installed, is a 422 that names the field', async () => {
    const notCode = await ocr({ image: dataUrl(french), languages: ['fr ench'] });
    expect(notCode.status).toBe(422);
    expect((await json(notCode)).param).toMatch(/^languages/);
    // Klingon: a code Tesseract has no model for anywhere.
    const absent = await ocr({ image: dataUrl(french), languages: ['tlh'] });
    expect(absent.status).toBe(422);
    const refusal = await json(absent);
    expect(refusal).toMatchObject({ code: 'ocr_language_not_installed', param: 'languages' });
    expect(refusal.message).toMatch(/tlh/);
  });
});

describe('the installed language models', () => {
  it('are listed on the OCR model in /v1/models (script detection left out)', async ({ skip }) => {
    if (!has('eng')) skip();
    const models = await json(await gateway.request('/v1/models'));
    const card = models.data.find((model: { id: string }) => model.id === 'svc-ocr-3-2512');
    // Debian's models, and the npm models the gateway depends on, each once.
    const debian = installed.filter((l) => /^[a-z]{3}(_[a-z]+)*$/.test(l) && l !== 'osd');
    expect(card.ocr_languages).toEqual(expect.arrayContaining([...debian, 'eng', 'fra', 'deu', 'spa', 'por']));
    expect(new Set(card.ocr_languages).size).toBe(card.ocr_languages.length);
    expect(card.ocr_languages).not.toContain('osd');
  });
});

describe('the official @mistralai/mistralai SDK, unchanged', () => {
  it('ocr.process accepts pages carrying the language fields', async ({ skip }) => {
    if (!has('fra')) skip();
    const client = new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });
    const result = await client.ocr.process({
      model: 'svc-ocr-3',
      document: { type: 'image_url', imageUrl: dataUrl(french) },
      includeBlocks: true,
      confidenceScoresGranularity: 'page',
    });
    expect(result.pages).toHaveLength(1);
    expect(result.pages[0].markdown).toMatch(/dignité/);
    // The same answer over HTTP carries the fields the SDK leaves out of its typed object.
    const raw = await json(
      await ocr({
        model: 'svc-ocr-3',
        document: { type: 'image_url', image_url: dataUrl(french) },
        include_blocks: true,
        confidence_scores_granularity: 'page',
      }),
    );
    expect(raw.pages[0].detected_language).toBe('fra');
  });
});
