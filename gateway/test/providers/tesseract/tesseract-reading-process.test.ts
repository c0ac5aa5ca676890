import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeGray, type GrayImage } from '../../../src/media/image/decode-image.js';
import { createNativeEngine } from '../../../src/providers/tesseract/native-engine.js';
import type { OcrEngine } from '../../../src/providers/tesseract/ocr-engine.js';
import { drawTextImage } from '../../support/draw-text.js';
import { useTempDir } from '../../support/use-resources.js';

/** The machine's `tesseract` behind a script that counts the command's starts on a page (not its `--version` and `--list-langs`). */
function countedCommand(): { command: string; starts: () => number } {
  const dir = useTempDir('switchyard-tesseract-starts-');
  const log = join(dir, 'starts');
  writeFileSync(log, '');
  const command = join(dir, 'tesseract');
  writeFileSync(command, `#!/bin/sh\necho "$1" >> '${log}'\nexec tesseract "$@"\n`);
  chmodSync(command, 0o755);
  return {
    command,
    starts: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((first) => first === 'stdin').length,
  };
}

function engineFor(command: string, timeoutMs = 60_000): OcrEngine {
  const engine = createNativeEngine({ workers: 1, command, timeoutMs });
  onTestFinished(() => engine.close());
  return engine;
}

async function linePage(text: string): Promise<GrayImage> {
  const drawn = await drawTextImage([{ text, x: 20, y: 40, size: 30 }], { width: 700, height: 100 });
  return decodeGray(drawn.image);
}

const read = async (engine: OcrEngine, page: GrayImage, signal = new AbortController().signal): Promise<string> =>
  (await engine.recognize(page, signal)).map((b) => b.text).join('\n');

describe('the native engine reads page after page in one process', () => {
  it('loads the model once for many pages, and gives each page its own words', async () => {
    const { command, starts } = countedCommand();
    const engine = engineFor(command);
    const texts = ['Invoices arrive on Monday', 'Receipts are kept for years', 'Tables list every payment'];
    const pages = await Promise.all(texts.map(linePage));
    for (const [at, page] of pages.entries()) expect(await read(engine, page)).toBe(texts[at]);
    expect(await read(engine, pages[0])).toBe(texts[0]);
    expect(starts()).toBe(1);
  });

  it('a page cancelled while it is read gives way: the next page gets its own words, not the cancelled ones', async () => {
    const { command } = countedCommand();
    const engine = engineFor(command);
    const page = await linePage('Cancelled pages leave no trace');
    expect(await read(engine, page)).toBe('Cancelled pages leave no trace');
    const controller = new AbortController();
    const cancelled = read(engine, page, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(cancelled).rejects.toMatchObject({ kind: 'aborted', code: 'aborted' });
    const next = await linePage('The next page reads well');
    expect(await read(engine, next)).toBe('The next page reads well');
  });

  it('a page over the time limit fails with ocr_timeout, and does not hold the worker', async () => {
    const { command } = countedCommand();
    const engine = engineFor(command, 1);
    const page = await linePage('Too slow for one millisecond');
    await expect(read(engine, page)).rejects.toMatchObject({ code: 'ocr_timeout' });
    await expect(read(engine, page)).rejects.toMatchObject({ code: 'ocr_timeout' });
  });
});
