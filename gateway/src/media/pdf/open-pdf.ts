import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MediaError } from '../media-error.js';

export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdfjs-dist's data folders on disk, so fonts, CMaps and image decoders never come from the network. */
function pdfjsAssets(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  const folder = (name: string): string => path.join(root, name) + path.sep;
  return { standardFontDataUrl: folder('standard_fonts'), cMapUrl: folder('cmaps'), wasmUrl: folder('wasm') };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

/**
 * Opens a PDF with pdfjs configured for Node: in-process (the "fake" worker imports the worker module
 * from disk), no eval, no fetches, local fonts, no image over `maxImagePixels` decoded (pdf.js leaves
 * it out). The caller must `destroy()` the document.
 */
export async function openPdf(bytes: Uint8Array, maxImagePixels: number): Promise<PDFDocumentProxy> {
  if (bytes.length === 0) {
    throw new MediaError('invalid_document', 'The document is empty (0 bytes).', { code: 'empty_document' });
  }
  // pdfjs is a large module: loaded on the first PDF, not at gateway start.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    // pdfjs transfers (detaches) the buffer it is given, so give it a copy.
    data: new Uint8Array(bytes),
    ...pdfjsAssets(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    maxImageSize: maxImagePixels,
    isOffscreenCanvasSupported: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    if (errorName(error) === 'PasswordException') {
      throw new MediaError(
        'invalid_document',
        'The PDF is password-protected. Remove the password (for example by printing it to a new PDF) and send it again.',
        { code: 'pdf_encrypted', cause: error },
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new MediaError('invalid_document', `The PDF could not be read (corrupt or truncated): ${reason}`, {
      code: 'corrupt_pdf',
      cause: error,
    });
  }
}
