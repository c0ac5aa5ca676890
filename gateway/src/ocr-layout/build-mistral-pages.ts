import type { BoxCoordinates, OcrPage, OcrWord } from './ocr-page.js';
import { documentRegions, LIST_MARKER } from './classify-regions.js';
import { boxCorners } from './box-geometry.js';
import type {
  OcrPageBlock,
  OcrPageObject,
  OcrTableObject,
  WordConfidence,
} from '../wire/mistral-ocr-response-schema.js';
import type { PageRegion } from './page-regions.js';
import { htmlTable, markdownTable, wireTableCells } from './table-markup.js';
import { languageApart } from './identify-language.js';
import { joinWords } from './join-words.js';
import { pageLanguageFields } from './page-language-fields.js';

export interface MistralPageOptions {
  /** null: tables inline in the markdown; otherwise apart in `tables`, linked from the markdown. */
  tableFormat: 'markdown' | 'html' | null;
  extractHeader: boolean;
  extractFooter: boolean;
  includeBlocks: boolean;
  confidenceGranularity: 'page' | 'word' | 'block' | null;
}

/** What the caller knows about a page beyond the OCR result: its figures (already limited and named) and resolution. */
export interface PageExtras {
  figures: { id: string; bbox: BoxCoordinates }[];
  /** Every picture area found, returned as a figure or not (default: the figures). */
  pictures?: BoxCoordinates[];
  dpi: number;
}

interface Rendered {
  type: PageRegion['type'];
  /** What goes in the page markdown for this region ('' when extracted apart). */
  markdown: string;
  /** The block's own content (a table in its format, a title without its # marks). */
  content: string;
  words: OcrWord[];
  region: PageRegion;
  tableId?: string;
  imageId?: string;
}

const sameBox = (a: BoxCoordinates, b: BoxCoordinates): boolean => a.every((value, at) => value === b[at]);

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Lines joined as running text: a word hyphenated across a line break is joined again; Chinese and Japanese lines join without a space. */
function runningText(lines: { text: string }[]): string {
  return lines.reduce((text, line) => {
    if (!text) return line.text;
    return /[A-Za-z]-$/.test(text) && /^[a-z]/.test(line.text)
      ? text.slice(0, -1) + line.text
      : joinWords([text, line.text]);
  }, '');
}

/** List items: a line with a marker starts one, indented lines without continue it. */
function listMarkdown(region: PageRegion): string {
  const items: { marker: string; lines: string[] }[] = [];
  for (const line of region.lines) {
    const first = line.words[0]?.text ?? '';
    if (LIST_MARKER.test(first) || items.length === 0) {
      const numbered = /\d|^\(?[a-z][.)]$/i.test(first) && LIST_MARKER.test(first);
      const marker = numbered ? first.replace(/^\(/, '').replace(/\)$/, '.') : '-';
      items.push({
        marker,
        lines: [
          line.words
            .slice(LIST_MARKER.test(first) ? 1 : 0)
            .map((word) => word.text)
            .join(' '),
        ],
      });
    } else items[items.length - 1].lines.push(line.text);
  }
  return items.map((item) => `${item.marker} ${runningText(item.lines.map((text) => ({ text })))}`).join('\n');
}

function wordConfidences(words: OcrWord[], text: string, offset = 0): WordConfidence[] {
  const scores: WordConfidence[] = [];
  let from = 0;
  for (const word of words) {
    const at = text.indexOf(word.text, from);
    if (at < 0) continue;
    scores.push({ text: word.text, confidence: round(word.confidence), start_index: offset + at });
    from = at + word.text.length;
  }
  return scores;
}

function blockConfidence(words: OcrWord[]) {
  if (words.length === 0)
    return {
      average_content_confidence_score: null,
      minimum_content_confidence_score: null,
      block_type_confidence_score: null,
    };
  const values = words.map((word) => word.confidence);
  return {
    average_content_confidence_score: round(values.reduce((sum, value) => sum + value, 0) / values.length),
    minimum_content_confidence_score: round(Math.min(...values)),
    block_type_confidence_score: null,
  };
}

/**
 * Mistral-style pages from an OCR result: markdown (headings, paragraphs, lists, tables inline or
 * apart, figures linked as ![img-n.jpeg](img-n.jpeg)), header and footer apart when asked, typed
 * blocks in reading order, and confidence scores. A page the engine returned as text without layout
 * (an upstream that answers with markdown) keeps its text as its markdown. Images come without crops:
 * the caller adds them.
 */
export function buildMistralPages(
  pages: OcrPage[],
  extras: PageExtras[],
  options: MistralPageOptions,
): OcrPageObject[] {
  const withLayout = pages.map((page, position) => page.blocks.length > 0 || extras[position].figures.length > 0);
  const pageRegions = documentRegions(
    pages,
    extras.map(({ figures, pictures }) => ({ figures: figures.map((figure) => figure.bbox), pictures })),
  );
  const tableIds = new Map<PageRegion, string>();
  let tableCount = 0;
  return pages.map((page, position) => {
    const { figures, dpi } = extras[position];
    const regions = pageRegions[position];
    const tables: OcrTableObject[] = [];
    const rendered: Rendered[] = regions.map((region) => {
      const words = region.lines.flatMap((line) => line.words);
      const text = runningText(region.lines);
      switch (region.type) {
        case 'title':
          return {
            type: region.type,
            markdown: `${'#'.repeat(region.level ?? 2)} ${text}`,
            content: text,
            words,
            region,
          };
        case 'list': {
          const list = listMarkdown(region);
          return { type: region.type, markdown: list, content: list, words, region };
        }
        case 'table': {
          const rows = region.rows ?? [];
          if (options.tableFormat === null) {
            const table = markdownTable(rows);
            return { type: region.type, markdown: table, content: table, words, region };
          }
          const id = `tbl-${tableCount++}.${options.tableFormat === 'html' ? 'html' : 'md'}`;
          tableIds.set(region, id);
          const continues = region.continues && tableIds.get(region.continues);
          const content = options.tableFormat === 'html' ? htmlTable(rows) : markdownTable(rows);
          tables.push({
            id,
            content,
            format: options.tableFormat,
            ...(continues ? { continues_table_id: continues } : {}),
            ...(options.confidenceGranularity === 'word'
              ? { word_confidence_scores: wordConfidences(words, content) }
              : {}),
          });
          return { type: region.type, markdown: `[${id}](${id})`, content, words, region, tableId: id };
        }
        case 'image': {
          // Figures come sorted top to bottom, image regions in reading order (a column's figure may be
          // read before a higher one in the next column): each region is linked to the figure of its box.
          const id = (figures.find((figure) => figure.bbox === region.bbox) ??
            figures.find((figure) => sameBox(figure.bbox, region.bbox)))!.id;
          return { type: region.type, markdown: `![${id}](${id})`, content: '', words, region, imageId: id };
        }
        case 'header':
          return { type: region.type, markdown: options.extractHeader ? '' : text, content: text, words, region };
        case 'footer':
          return { type: region.type, markdown: options.extractFooter ? '' : text, content: text, words, region };
        default:
          return { type: region.type, markdown: text, content: text, words, region };
      }
    });

    let markdown = '';
    const wordScores: WordConfidence[] = [];
    for (const part of rendered) {
      if (!part.markdown) continue;
      if (markdown) markdown += '\n\n';
      if (part.type !== 'table' || options.tableFormat === null)
        wordScores.push(...wordConfidences(part.words, part.markdown, markdown.length));
      markdown += part.markdown;
    }
    if (!withLayout[position]) markdown = page.text;

    const header = rendered.find((part) => part.type === 'header');
    const footer = rendered.find((part) => part.type === 'footer');
    const allWords = page.blocks.flatMap((block) => block.lines.flatMap((line) => line.words));
    const confidences = allWords.map((word) => word.confidence);
    const object: OcrPageObject = {
      index: page.index,
      markdown,
      images: figures.map((figure) => ({ id: figure.id, ...boxCorners(figure.bbox) })),
      tables,
      hyperlinks: [],
      header: options.extractHeader ? (header?.content ?? null) : null,
      footer: options.extractFooter ? (footer?.content ?? null) : null,
      dimensions: page.width > 0 && page.height > 0 ? { dpi, height: page.height, width: page.width } : null,
      ...pageLanguageFields(page),
    };
    if (options.includeBlocks) {
      object.blocks = rendered.map((part) => {
        const block: OcrPageBlock = { type: part.type, content: part.content, ...boxCorners(part.region.bbox) };
        if (options.confidenceGranularity === 'block') block.confidence_scores = blockConfidence(part.words);
        if (part.tableId) block.table_id = part.tableId;
        if (part.region.cells) block.cells = wireTableCells(part.region.cells);
        if (part.region.ruling) block.table_ruling = part.region.ruling;
        const continues = part.region.continues && tableIds.get(part.region.continues);
        if (continues) block.continues_table_id = continues;
        if (part.imageId) block.image_id = part.imageId;
        const language = page.language && languageApart(part.content, page.language);
        if (language) block.language = language;
        return block;
      });
    }
    if (options.confidenceGranularity) {
      object.confidence_scores = {
        average_page_confidence_score: confidences.length
          ? round(confidences.reduce((sum, value) => sum + value, 0) / confidences.length)
          : 0,
        minimum_page_confidence_score: confidences.length ? round(Math.min(...confidences)) : 0,
        ...(options.confidenceGranularity === 'word' ? { word_confidence_scores: wordScores } : {}),
      };
    }
    return object;
  });
}
