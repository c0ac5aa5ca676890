/**
 * Real scans with transcriptions made by people, not by this project (sources and licences in
 * bench/ocr/real/SOURCES.md). A page is read from the first of these folders that has its file:
 * $SWITCHYARD_OCR_REAL_DIR, the shared/ folder beside the repository (shared/ocr-real), and
 * bench/ocr/real; a page found in none is skipped, and the bench says so.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { BenchPage } from './pages.js';

const here = path.dirname(new URL(import.meta.url).pathname);

interface RealPage {
  category: string;
  image: string;
  truth: string;
}

export const REAL_PAGES: RealPage[] = [
  { category: 'real magazine', image: '8071_093.3B.tif', truth: '8071_093.3B.txt' },
  { category: 'real magazine', image: '8087_054.3B.tif', truth: '8087_054.3B.txt' },
  { category: 'real scan', image: 'phototest.tif', truth: 'phototest.txt' },
  { category: 'real scan', image: 'eurotext.tif', truth: 'eurotext.txt' },
];

export function realPageFolders(): string[] {
  return [
    process.env.SWITCHYARD_OCR_REAL_DIR,
    path.join(here, '../../../shared/ocr-real'),
    path.join(here, 'real'),
  ].filter((dir): dir is string => dir !== undefined && dir !== '');
}

/** The file's path in the first folder that has it. */
export function findRealFile(name: string): string | undefined {
  return realPageFolders()
    .map((dir) => path.join(dir, name))
    .find((file) => existsSync(file));
}

/**
 * The ISRI transcriptions mark a character they could not type (an accented letter, a dingbat) with
 * `~`; it is dropped so no engine is charged for it.
 */
const cleanTruth = (text: string): string => text.replace(/~/g, '');

export async function realPages(): Promise<BenchPage[]> {
  const pages: BenchPage[] = [];
  for (const page of REAL_PAGES) {
    const image = findRealFile(page.image);
    const truth = findRealFile(page.truth);
    if (!image || !truth) {
      console.log(`(skipping real scan ${page.image}: not in ${realPageFolders().join(', ')})`);
      continue;
    }
    // As PNG, so the command and the gateway read the same bytes.
    const png = await sharp(await readFile(image))
      .png()
      .toBuffer({ resolveWithObject: true });
    pages.push({
      category: page.category,
      name: page.image,
      image: {
        image: png.data,
        mimeType: 'image/png',
        width: png.info.width,
        height: png.info.height,
        words: [],
        text: cleanTruth(await readFile(truth, 'utf8')),
      },
    });
  }
  return pages;
}
