import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { GrayImage } from '../image/decode-image.js';
import { MediaError } from '../media-error.js';

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/** Page size in pixels at `dpi`, throwing `too_large` (naming max_pixels) when it exceeds `maxPixels`. */
export function pdfPageSize(page: PDFPageProxy, dpi: number, maxPixels: number): { width: number; height: number } {
  const viewport = page.getViewport({ scale: dpi / 72 });
  const width = Math.ceil(viewport.width);
  const height = Math.ceil(viewport.height);
  if (width * height > maxPixels) {
    throw new MediaError(
      'too_large',
      `PDF page ${page.pageNumber - 1} is ${width}×${height} pixels at ${dpi} DPI (${((width * height) / 1e6).toFixed(1)} megapixels), over the max_pixels limit of ${(maxPixels / 1e6).toFixed(1)} megapixels. Lower render_dpi or raise max_pixels.`,
      { code: 'page_too_large', param: 'max_pixels' },
    );
  }
  return { width, height };
}

/** Renders a PDF page on white at `dpi` to an 8-bit grayscale image. */
export async function renderPdfPage(page: PDFPageProxy, dpi: number, maxPixels: number): Promise<GrayImage> {
  const { width, height } = pdfPageSize(page, dpi, maxPixels);
  const viewport = page.getViewport({ scale: dpi / 72 });
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdfjs types its canvas arguments as DOM types; @napi-rs/canvas is its supported Node implementation.
  await page.render({
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
  }).promise;
  const rgba = context.getImageData(0, 0, width, height).data;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) {
    gray[i] = Math.round(0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2]);
  }
  return { width, height, data: gray };
}
