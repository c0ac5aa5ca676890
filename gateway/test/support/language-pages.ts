/**
 * Test tooling: pages of real translated text (the Universal Declaration of Human Rights, see
 * bench/ocr/SOURCES.md) in many languages and scripts, drawn clean, in small print, in two columns
 * and degraded, with their truth text. Used by the OCR language tests and the OCR benchmark.
 */
import { readFile } from 'node:fs/promises';
import {
  drawTextImage,
  textWidth,
  type Degradation,
  type DrawnImage,
  type FontKind,
  type TextLineSpec,
} from './draw-text.js';

/** Tesseract's language codes of the texts in support/udhr/, with the script each is written in. */
export const UDHR_LANGUAGES = {
  eng: 'Latin',
  fra: 'Latin',
  deu: 'Latin',
  spa: 'Latin',
  ita: 'Latin',
  por: 'Latin',
  pol: 'Latin',
  rus: 'Cyrillic',
  ukr: 'Cyrillic',
  ell: 'Greek',
  jpn: 'Japanese',
  chi_sim: 'Han',
} as const;
export type UdhrLanguage = keyof typeof UDHR_LANGUAGES;

export const LANGUAGE_PAGE_KINDS = ['clean', 'small_font', 'two_column', 'degraded'] as const;
export type LanguagePageKind = (typeof LANGUAGE_PAGE_KINDS)[number];

const CJK: ReadonlySet<UdhrLanguage> = new Set(['jpn', 'chi_sim']);

/** The declaration's titles and paragraphs in `language`, one a line. */
export async function udhrParagraphs(language: UdhrLanguage): Promise<string[]> {
  const text = await readFile(new URL(`udhr/${language}.txt`, import.meta.url), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** Lines of at most `width` px: at spaces, or between any two characters for Chinese and Japanese. */
function wrap(paragraph: string, size: number, width: number, font: FontKind, anywhere: boolean): string[] {
  const pieces = anywhere ? [...paragraph] : paragraph.split(' ');
  const joiner = anywhere ? '' : ' ';
  const lines: string[] = [];
  let current = '';
  for (const piece of pieces) {
    const candidate = current ? `${current}${joiner}${piece}` : piece;
    if (current && textWidth(candidate, size, font) > width) {
      lines.push(current);
      current = piece;
    } else current = candidate;
  }
  if (current) lines.push(current.trim());
  return lines.filter((line) => line !== '');
}

interface PageStyle {
  size: number;
  columns: number;
  width: number;
  lines: number;
  degradation: Degradation;
}

const STYLES: Record<LanguagePageKind, PageStyle> = {
  clean: { size: 24, columns: 1, width: 1100, lines: 16, degradation: {} },
  small_font: { size: 13, columns: 1, width: 900, lines: 22, degradation: {} },
  two_column: { size: 20, columns: 2, width: 1240, lines: 14, degradation: {} },
  degraded: {
    size: 22,
    columns: 1,
    width: 1100,
    lines: 14,
    degradation: { rotate: 1.5, blur: 0.8, noise: 18, seed: 3 },
  },
};

/**
 * One page of the declaration in `language`, laid out as `kind` says; each kind starts at another
 * paragraph so the four pages carry different text. The truth text is in reading order (columns left to right).
 */
export async function makeLanguagePage(language: UdhrLanguage, kind: LanguagePageKind): Promise<DrawnImage> {
  const style = STYLES[kind];
  const font: FontKind = CJK.has(language) ? 'cjk' : 'sans';
  const paragraphs = await udhrParagraphs(language);
  const margin = 60;
  const gutter = Math.round(style.size * 2.2);
  const columnWidth = (style.width - 2 * margin - gutter * (style.columns - 1)) / style.columns;
  const start = (LANGUAGE_PAGE_KINDS.indexOf(kind) * 5) % paragraphs.length;
  const wrapped = [...paragraphs.slice(start), ...paragraphs.slice(0, start)].flatMap((p) =>
    wrap(p, style.size, columnWidth, font, CJK.has(language)),
  );
  const leading = Math.round(style.size * 1.5);
  const specs: TextLineSpec[] = [];
  for (let column = 0; column < style.columns; column++) {
    for (let row = 0; row < style.lines; row++) {
      const text = wrapped[column * style.lines + row];
      if (text === undefined) break;
      specs.push({
        text,
        x: Math.round(margin + column * (columnWidth + gutter)),
        y: margin + style.size + row * leading,
        size: style.size,
      });
    }
  }
  const height = margin * 2 + style.size + (style.lines - 1) * leading + style.size;
  return drawTextImage(specs, { width: style.width, height, font, ...style.degradation });
}
