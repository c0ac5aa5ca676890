import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRealFile } from '../../../../bench/ocr/real-pages.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';

/**
 * Mistral-style pages on real scans (bench/ocr/real/SOURCES.md): Tesseract's phototest and a UNLV-ISRI
 * magazine page with a photo and its caption. They are public data kept outside this repository
 * (shared/ocr-real beside it, or SWITCHYARD_OCR_REAL_DIR); each test says it is skipped without them.
 */
let gateway: TestGateway;
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

async function readAsMistral(file: string, extra: Record<string, unknown>): Promise<Json> {
  const png = await sharp(readFileSync(file)).png().toBuffer();
  const response = await gateway.request('/v1/ocr', {
    method: 'POST',
    json: {
      model: 'svc-ocr-3',
      document: { type: 'image_url', image_url: `data:image/png;base64,${png.toString('base64')}` },
      include_blocks: true,
      ...extra,
    },
  });
  expect(response.status).toBe(200);
  return (await json(response)).pages[0];
}

beforeAll(async () => {
  gateway = await startGateway({ warm: true });
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(() => gateway.close());

describe('Mistral-style pages on real scans', () => {
  const phototest = findRealFile('phototest.tif');
  it.skipIf(!phototest)('reads phototest word for word as two paragraphs, with no table and no figure', async () => {
    const page = await readAsMistral(phototest!, { table_format: 'html' });
    const truth = readFileSync(findRealFile('phototest.txt')!, 'utf8');
    expect(page.blocks.map((b: Json) => b.type)).toEqual(['text', 'text']);
    expect(oneLine(page.blocks.map((b: Json) => b.content).join(' '))).toBe(oneLine(truth));
    expect(page.tables).toEqual([]);
    expect(page.images).toEqual([]);
  });

  const magazine = findRealFile('8087_054.3B.tif');
  it.skipIf(!magazine)(
    'puts a magazine photo’s caption right after it, makes no table of justified columns, and crops the photo',
    async () => {
      for (const tableFormat of ['markdown', 'html']) {
        const page = await readAsMistral(magazine!, { table_format: tableFormat, include_image_base64: true });
        const types: string[] = page.blocks.map((b: Json) => b.type);
        expect(types).not.toContain('table');
        expect(page.tables).toEqual([]);
        const figure = types.indexOf('image');
        expect(figure).toBeGreaterThanOrEqual(0);
        const caption = page.blocks[figure + 1];
        expect(caption.type).toBe('caption');
        expect(caption.content).toMatch(
          /TERRA-COTTA ROOFS OF DUBROVNIK, DAMAGED DURING THE SHELLING, ARE MOSTLY RESTORED NOW\./,
        );
        // The caption is said once, not also inside the paragraphs around it.
        expect(page.markdown.match(/RESTORED NOW/g)).toHaveLength(1);
        // The photo's crop is its box: a JPEG as large as the box, mostly dark (a photo, not paper).
        const [image] = page.images;
        expect(image.id).toBe(page.blocks[figure].image_id);
        const crop = Buffer.from(image.image_base64.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
        const { info, data } = await sharp(crop).greyscale().raw().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([
          image.bottom_right_x - image.top_left_x,
          image.bottom_right_y - image.top_left_y,
        ]);
        expect(data.reduce((sum, v) => sum + v, 0) / data.length).toBeLessThan(128);
        // Each column's text reads on past the photo: the left column's sentence cut by it is whole.
        expect(oneLine(page.markdown)).toContain(
          'said Milo, a big, mustachioed Croatian and an unemployed tour guide.',
        );
      }
    },
  );

  const photoAtEdge = findRealFile('8071_093.3B.tif');
  it.skipIf(!photoAtEdge)(
    'finds a photo that runs into the scan’s dark margin, links it once, and keeps the text wrapped around it',
    async () => {
      const page = await readAsMistral(photoAtEdge!, {});
      // One figure: the photo at the lower left, not the black margin below the page.
      expect(page.images).toHaveLength(1);
      const [image] = page.images;
      expect(image.top_left_x).toBeLessThan(100);
      expect(image.bottom_right_x).toBeLessThan(1100);
      expect(image.bottom_right_y).toBeLessThan(2350);
      expect(page.markdown.match(/!\[[^\]]*\]\([^)]*\)/g)).toEqual([`![${image.id}](${image.id})`]);
      expect(page.blocks.filter((b: Json) => b.type === 'image').map((b: Json) => b.image_id)).toEqual([image.id]);
      // The column beside the photo wraps around its edge: its words inside the photo's box are text.
      const text = oneLine(page.markdown);
      expect(text).toContain('never took a course in parenting. He was simply showing love for his daughter');
      expect(text).toContain('a better formula for fatherhood.');
    },
  );

  it.skipIf(!magazine)(
    'reads the magazine page column by column around the photo, its caption after the columns',
    async () => {
      const png = await sharp(readFileSync(magazine!)).png().toBuffer();
      const body = await json(
        await gateway.request('/v1/ocr', { method: 'POST', json: { image: png.toString('base64') } }),
      );
      const text = oneLine(body.text);
      const at = (phrase: string): number => {
        expect(text, phrase).toContain(phrase);
        return text.indexOf(phrase);
      };
      // Left column top, past the photo, to its foot; then the right column from its top.
      expect(at('Dubrovnik I had heard')).toBeLessThan(at('Dubrovnik’s main boulevard'));
      expect(at('Dubrovnik’s main boulevard')).toBeLessThan(at('Once a month, any person in'));
      expect(at('Once a month, any person in')).toBeLessThan(at('need receives flour'));
      expect(at('need receives flour')).toBeLessThan(at('fanatic Serb gunmen'));
      expect(at('fanatic Serb gunmen')).toBeLessThan(at('RESTORED NOW'));
    },
  );
});
