import type { BoxCoordinates, OcrBlock, OcrLine, OcrWord } from '../contracts/ocr.js';

const mean = (values: number[]): number => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * Converts the `tesseract` command's TSV (level, page, block, paragraph, line, word, left, top, width,
 * height, conf, text) to blocks → lines → words in Tesseract's order, one block per paragraph, boxes
 * in the image's pixels, confidences 0..1 (lines and blocks: the mean of their words).
 */
export function tsvToOcrBlocks(tsv: string): OcrBlock[] {
  const blocks: OcrBlock[] = [];
  let block: OcrBlock | undefined;
  let line: OcrLine | undefined;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || !/^\d+$/.test(cells[0])) continue;
    const [left, top, width, height] = cells.slice(6, 10).map(Number);
    const bbox: BoxCoordinates = [left, top, left + width, top + height];
    const level = Number(cells[0]);
    if (level === 3) {
      block = { text: '', bbox, confidence: 0, lines: [] };
      blocks.push(block);
    } else if (level === 4 && block) {
      line = { text: '', bbox, confidence: 0, words: [] };
      block.lines.push(line);
    } else if (level === 5 && line) {
      const text = cells.slice(11).join('\t').trim();
      if (text.length === 0) continue;
      const word: OcrWord = { text, bbox, confidence: Math.max(0, Math.min(1, Number(cells[10]) / 100)) };
      line.words.push(word);
    }
  }
  const out: OcrBlock[] = [];
  for (const b of blocks) {
    const lines = b.lines.filter((l) => l.words.length > 0);
    for (const l of lines) {
      l.text = l.words.map((w) => w.text).join(' ');
      l.confidence = mean(l.words.map((w) => w.confidence));
    }
    if (lines.length === 0) continue;
    out.push({
      text: lines.map((l) => l.text).join('\n'),
      bbox: b.bbox,
      confidence: mean(lines.map((l) => l.confidence)),
      lines,
    });
  }
  return out;
}
