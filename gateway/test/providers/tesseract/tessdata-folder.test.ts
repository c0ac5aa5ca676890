import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeGray } from '../../../src/media/image/decode-image.js';
import { TessdataFolder } from '../../../src/providers/tesseract/tessdata-folder.js';
import { createWasmEngine } from '../../../src/providers/tesseract/wasm-engine.js';
import { makeLanguagePage } from '../../support/language-pages.js';
import { useTempDir } from '../../support/use-resources.js';
import { systemTessdata } from '../../support/system-tessdata.js';

const system = systemTessdata();

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** A folder of the three sources: the machine's models, an npm scope with one gzipped package, downloads. */
function sources() {
  const root = useTempDir('switchyard-tessdata-');
  const npmScope = join(root, 'node_modules', '@tesseract.js-data');
  const downloads = join(root, 'models', 'tessdata');
  mkdirSync(join(npmScope, 'por', '4.0.0_best_int'), { recursive: true });
  mkdirSync(downloads, { recursive: true });
  const french = readFileSync(join(system as string, 'fra.traineddata'));
  // Stand-ins made of the French model, so that tesseract loads them: Portuguese from npm (gzipped, as
  // @tesseract.js-data ships it), none downloaded yet.
  writeFileSync(join(npmScope, 'por', '4.0.0_best_int', 'por.traineddata.gz'), gzipSync(french));
  const folder = new TessdataFolder({
    folder: join(root, 'ocr-tessdata'),
    downloads,
    npmScope,
    system: async () => system,
  });
  return { folder, downloads, french };
}

describe.skipIf(!system)('the language models of three sources, as one folder', () => {
  it("lists each language's source, links the machine's and downloaded ones, unpacks npm's, and follows downloads and deletions", async () => {
    const { folder, downloads } = sources();
    expect(folder.sources()).toBeUndefined();
    const before = await folder.languages();
    expect(before).toEqual(expect.arrayContaining(['eng', 'fra', 'osd', 'por']));
    expect(folder.sources()?.get('fra')).toBe('system');
    expect(folder.sources()?.get('por')).toBe('npm');
    expect(lstatSync(join(folder.path, 'fra.traineddata')).isSymbolicLink()).toBe(true);
    // The command reads no gzip: npm's model is unpacked (the `tsv` output format is a config beside them).
    expect(readFileSync(join(folder.path, 'por.traineddata')).subarray(0, 2)).not.toEqual(Buffer.from([0x1f, 0x8b]));
    expect(existsSync(join(folder.path, 'configs', 'tsv'))).toBe(true);

    copyFileSync(join(system as string, 'fra.traineddata'), join(downloads, 'ita.traineddata'));
    expect(await folder.languages()).toContain('ita');
    expect(folder.sources()?.get('ita')).toBe('download');
    rmSync(join(downloads, 'ita.traineddata'));
    expect(await folder.languages()).not.toContain('ita');
    expect(existsSync(join(folder.path, 'ita.traineddata'))).toBe(false);
  });

  it('writes nothing once closed: a closing gateway can remove its data folder while an update was running', async () => {
    const { folder } = sources();
    void folder.languages();
    await folder.close();
    rmSync(folder.path, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(folder.path)).toBe(false);
  });

  it('writes nothing for a look asked after it closed (an engine that was still warming)', async () => {
    const { folder } = sources();
    expect(await folder.languages()).toContain('eng');
    await folder.close();
    rmSync(folder.path, { recursive: true });
    expect(await folder.languages()).toContain('eng');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(folder.path)).toBe(false);
  });

  it('tesseract.js reads a language from npm and one downloaded while it runs, with no restart', async () => {
    const { folder, downloads } = sources();
    const engine = createWasmEngine(1, undefined, folder);
    closers.push(() => engine.close());
    const page = await decodeGray((await makeLanguagePage('fra', 'clean')).image);
    // The page's top, title and first paragraph: enough to see the accents, quick to read.
    const height = Math.min(page.height, Math.round(page.width * 0.3));
    const image = { ...page, height, data: page.data.subarray(0, page.width * height) };
    const words = async (languages: string[]) =>
      (await engine.recognize(image, new AbortController().signal, 'auto', languages)).map((b) => b.text).join(' ');

    expect(await engine.languages()).toContain('por');
    expect(await words(['por'])).toMatch(/Déclaration universelle|Préambule/);
    copyFileSync(join(system as string, 'fra.traineddata'), join(downloads, 'ita.traineddata'));
    expect(await engine.languages()).toContain('ita');
    expect(await words(['ita'])).toMatch(/Déclaration universelle|Préambule/);
  });
});
