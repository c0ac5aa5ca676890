import { describe, expect, it } from 'vitest';
import { orderBlocks } from '../../src/ocr-layout/reading-order.js';
import type { BoxCoordinates, OcrBlock, OcrLine } from '../../src/providers/contracts/ocr.js';

/** A block of 20 px lines of six words (prose, not table cells) from `top` to `bottom` between `left` and `right`. */
function block(name: string, left: number, right: number, top: number, bottom: number): OcrBlock {
  const lines: OcrLine[] = [];
  const step = (right - left) / 6;
  for (let y = top, i = 0; y + 20 <= bottom; y += 28, i++) {
    const words = Array.from({ length: 6 }, (_, w) => ({
      text: w === 0 ? `${name}${i}` : 'word',
      bbox: [left + w * step, y, left + (w + 1) * step - 6, y + 20] as BoxCoordinates,
      confidence: 0.9,
    }));
    lines.push({
      text: words.map((w) => w.text).join(' '),
      bbox: [left, y, right - 6, y + 20],
      confidence: 0.9,
      words,
    });
  }
  return {
    text: lines.map((l) => l.text).join('\n'),
    bbox: [left, top, right, lines[lines.length - 1].bbox[3]],
    confidence: 0.9,
    lines,
  };
}

const names = (blocks: OcrBlock[]): string[] => blocks.map((b) => b.lines[0].words[0].text.replace(/\d+$/, ''));

describe('reading order around a caption between two columns', () => {
  it('reads each column through, paragraph breaks that happen to align included, and the caption after them', () => {
    const blocks = [
      block('leftA', 100, 500, 100, 400),
      block('rightA', 600, 1000, 100, 400),
      block('leftB', 100, 500, 430, 900),
      block('rightB', 600, 1000, 430, 900),
      // A caption under a photo in the middle of the page, between the columns, with text on both sides.
      block('caption', 420, 680, 700, 760),
    ];
    expect(names(orderBlocks(blocks, { width: 1100, height: 1000 }))).toEqual([
      'leftA',
      'leftB',
      'rightA',
      'rightB',
      'caption',
    ]);
  });

  it('still reads a full-width title above the columns first', () => {
    const blocks = [
      block('title', 100, 1000, 40, 60),
      block('left', 100, 500, 100, 600),
      block('right', 600, 1000, 100, 600),
    ];
    expect(names(orderBlocks(blocks, { width: 1100, height: 1000 }))).toEqual(['title', 'left', 'right']);
  });
});

describe('a line Tesseract cut in two', () => {
  it('reads the left piece before the block that holds the right piece and the next line (both start at the margin)', () => {
    const left = block('left', 60, 370, 352, 374);
    // The right piece of row one, then row two from the margin: one block whose box starts at the margin too.
    const rest = block('rest', 400, 1030, 352, 374);
    const next = block('next', 60, 1030, 380, 402);
    const merged: OcrBlock = {
      text: `${rest.text}\n${next.text}`,
      bbox: [60, 352, 1030, 402],
      confidence: 0.9,
      lines: [...rest.lines, ...next.lines],
    };
    const below = block('below', 60, 1030, 440, 470);
    expect(names(orderBlocks([merged, left, below], { width: 1100, height: 600 }))).toEqual(['left', 'rest', 'below']);
  });
});
