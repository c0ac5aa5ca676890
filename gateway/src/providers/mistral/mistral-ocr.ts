import type { OcrPage, OcrProvider, OcrRequest, OcrResult } from '../contracts/ocr.js';
import type { UpstreamClient } from '../_shared/http/upstream-client.js';
import { expectArray, expectRecord, isRecord, optionalNumber, optionalString } from '../_shared/http/wire-guards.js';

/**
 * OCR through Mistral's `POST /v1/ocr`, the document sent inline as a data URL. A page's markdown
 * becomes its text. Mistral returns no word or line boxes, so `blocks` stays empty rather than
 * inventing positions or confidences.
 */
export function createMistralOcr(client: UpstreamClient): OcrProvider {
  return {
    async ocr(request: OcrRequest): Promise<OcrResult> {
      const dataUrl = `data:${request.mimeType};base64,${request.document.toString('base64')}`;
      const document = request.mimeType.startsWith('image/')
        ? { type: 'image_url', image_url: dataUrl }
        : { type: 'document_url', document_url: dataUrl };
      const json = {
        model: request.model,
        document,
        include_image_base64: false,
        ...(request.pages ? { pages: request.pages } : {}),
      };
      const answer = await client.postJson({ path: '/ocr', body: { json }, signal: request.signal });
      const pages = expectArray(expectRecord(answer, client.name, 'the answer').pages, client.name, 'pages');
      return { pages: pages.map((page, position) => readPage(page, position, client.name)) };
    },
  };
}

function readPage(value: unknown, position: number, providerName: string): OcrPage {
  const page = expectRecord(value, providerName, 'a page');
  const dimensions = isRecord(page.dimensions) ? page.dimensions : {};
  return {
    index: optionalNumber(page.index) ?? position,
    width: optionalNumber(dimensions.width) ?? 0,
    height: optionalNumber(dimensions.height) ?? 0,
    text: optionalString(page.markdown) ?? '',
    blocks: [],
    source: 'ocr',
  };
}
