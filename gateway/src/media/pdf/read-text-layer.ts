import type { SKRSContext2D } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { OcrWord } from '../../ocr-layout/ocr-page.js';

export interface TextLayerPage {
  /** Size of the page rendered at the requested DPI, pixels. */
  width: number;
  height: number;
  /** Words with boxes in those pixels, top-left origin. */
  words: OcrWord[];
}

interface PositionedItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

/** Metric-compatible stand-ins for the PDF base fonts, used only to apportion a run's width among its words. */
const MEASURE_FONTS: Record<string, string> = {
  'sans-serif': '"Liberation Sans", Arial, "DejaVu Sans", sans-serif',
  serif: '"Liberation Serif", "Times New Roman", "DejaVu Serif", serif',
  monospace: '"Liberation Mono", "Courier New", "DejaVu Sans Mono", monospace',
};

// Imported on first use (the module loader keeps it): the canvas library costs about 20 MB of memory, and most gateways read no PDF.
const measuringContext = (): Promise<SKRSContext2D> =>
  import('@napi-rs/canvas').then(({ createCanvas }) => createCanvas(1, 1).getContext('2d'));

function textWidth(measure: SKRSContext2D, text: string, family: string): number {
  measure.font = `100px ${MEASURE_FONTS[family] ?? MEASURE_FONTS['sans-serif']}`;
  return measure.measureText(text).width;
}

/**
 * The page's own text, as words with pixel boxes at `dpi`. pdfjs gives runs of text with a transform;
 * runs are split at spaces and each word gets its share of the run's advance, measured with a
 * metric-compatible font.
 */
export async function readTextLayer(page: PDFPageProxy, dpi: number): Promise<TextLayerPage> {
  const viewport = page.getViewport({ scale: dpi / 72 });
  const content = await page.getTextContent();
  const measure = await measuringContext();
  const words: OcrWord[] = [];
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const item = raw as PositionedItem;
    if (!item.str.trim()) continue;
    const style = content.styles[item.fontName] as
      { fontFamily?: string; ascent?: number; descent?: number } | undefined;
    const family = style?.fontFamily ?? 'sans-serif';
    const ascent = style?.ascent ?? 0.8;
    const descent = style?.descent ?? -0.2;
    const m = multiplyTransforms(viewport.transform as number[], item.transform as number[]);
    // Unit vectors along the baseline and up the glyphs, and the font size, in device pixels.
    const fontSize = Math.hypot(m[2], m[3]);
    const advance = Math.hypot(m[0], m[1]) || 1;
    const along = [m[0] / advance, m[1] / advance];
    const up = [m[2] / fontSize, m[3] / fontSize];
    const runWidth = item.width * (dpi / 72);
    const measured = textWidth(measure, item.str, family);
    const pxPerUnit = measured > 0 ? runWidth / measured : 0;
    let searchFrom = 0;
    for (const text of item.str.split(/\s+/).filter(Boolean)) {
      const start = item.str.indexOf(text, searchFrom);
      searchFrom = start + text.length;
      const from = textWidth(measure, item.str.slice(0, start), family) * pxPerUnit;
      const to = from + textWidth(measure, text, family) * pxPerUnit;
      const corners = [
        [from, ascent * fontSize],
        [to, ascent * fontSize],
        [from, descent * fontSize],
        [to, descent * fontSize],
      ].map(([a, u]) => [m[4] + along[0] * a + up[0] * u, m[5] + along[1] * a + up[1] * u]);
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      words.push({
        text,
        bbox: [
          Math.round(Math.min(...xs)),
          Math.round(Math.min(...ys)),
          Math.round(Math.max(...xs)),
          Math.round(Math.max(...ys)),
        ],
        confidence: 1,
      });
    }
  }
  return { width: Math.ceil(viewport.width), height: Math.ceil(viewport.height), words };
}

/** Composes two PDF affine transforms [a, b, c, d, e, f] (what pdfjs's Util.transform does), without loading pdfjs at start. */
function multiplyTransforms(m1: number[], m2: number[]): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}
