import type { OcrRequest, OcrResult } from '../../providers/contracts/ocr.js';
import { documentSourceLimits, loadDocument, type LoadedDocument } from '../files/document-source.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';
import type { OcrAdmission } from './ocr-admission.js';

export interface RecognisedDocument {
  result: OcrResult;
  route: ModelRoute;
  document: LoadedDocument;
}

export interface RecogniseServices {
  runner: RouteRunner;
  ocrAdmission: OcrAdmission;
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
}

/** What to read, for whom. */
export interface RecogniseRequest {
  source: string | Buffer;
  pages?: number[];
  /** The languages the client named; absent: each page's language is detected. */
  languages?: string[];
  /** The request field the document came in, for errors. */
  param: string;
  /** The calling key: a local engine takes jobs in turns by key. */
  keyId: string | null;
  /** Each page's picture areas too (see OcrRequest). */
  pictures?: OcrRequest['pictures'];
}

/** Loads a document (data URL, base64, URL or bytes), checks it is an image or PDF, and runs OCR on the route in the key's turn. */
export async function recogniseDocument(
  services: RecogniseServices,
  route: ModelRoute,
  request: RecogniseRequest,
  signal: AbortSignal,
): Promise<RecognisedDocument> {
  const document = await loadDocument(request.source, documentSourceLimits(services), {
    param: request.param,
    accept: 'documents',
  });
  const { value, route: served } = await services.runner.invoke(
    route,
    'ocr',
    signal,
    (ocr, model, attemptSignal, candidate) =>
      services.ocrAdmission.engine(candidate, request.keyId, attemptSignal, () =>
        ocr.ocr({
          model,
          document: document.bytes,
          mimeType: document.mediaType,
          pages: request.pages,
          languages: request.languages,
          signal: attemptSignal,
          pictures: request.pictures,
        }),
      ),
  );
  return { result: value, route: served, document };
}
