import type { OcrResult } from '../../providers/contracts/ocr.js';
import { documentSourceLimits, loadDocument, type LoadedDocument } from '../files/document-source.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

export interface RecognisedDocument {
  result: OcrResult;
  route: ModelRoute;
  document: LoadedDocument;
}

export interface RecogniseServices {
  runner: RouteRunner;
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
}

/** Loads a document (data URL, base64, URL or bytes), checks it is an image or PDF, and runs OCR on the route. */
export async function recogniseDocument(
  services: RecogniseServices,
  route: ModelRoute,
  source: string | Buffer,
  pages: number[] | undefined,
  signal: AbortSignal,
  param = 'image',
): Promise<RecognisedDocument> {
  const document = await loadDocument(source, documentSourceLimits(services), { param, accept: 'documents' });
  const { value, route: served } = await services.runner.invoke(route, 'ocr', signal, (ocr, model, attemptSignal) =>
    ocr.ocr({ model, document: document.bytes, mimeType: document.mediaType, pages, signal: attemptSignal }),
  );
  return { result: value, route: served, document };
}
