import { sniffMediaType } from '../../media/sniff-media-type.js';
import type { OcrResult } from '../../providers/contracts/ocr.js';
import { documentSourceLimits, loadDocumentSource } from '../files/document-source.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

export interface RecognisedDocument {
  result: OcrResult;
  route: ModelRoute;
  bytes: Buffer;
  mimeType: string;
}

/** Loads a document (data URL, base64, URL or bytes), checks it is an image or PDF, and runs OCR on the route. */
export async function recogniseDocument(
  services: { runner: RouteRunner; options: { server: { bodyLimitBytes: number } }; urlFetchPolicy: AddressPolicy },
  route: ModelRoute,
  source: string | Buffer,
  pages: number[] | undefined,
  signal: AbortSignal,
  param = 'image',
): Promise<RecognisedDocument> {
  const bytes = typeof source === 'string' ? await loadDocumentSource(source, documentSourceLimits(services), param) : source;
  if (bytes.length === 0) throw new GatewayError(422, 'empty_document', 'The document is empty (0 bytes).', { param });
  const mimeType = sniffMediaType(bytes);
  if (!mimeType) {
    throw new GatewayError(415, 'unsupported_media_type', 'The document is not a supported format: send PNG, JPEG, WebP, TIFF, BMP, GIF or PDF.', { param });
  }
  const { value, route: served } = await services.runner.run(route, 'ocr', signal, (candidate, attemptSignal) => {
    const ocr = candidate.provider.capabilities.ocr;
    if (!ocr) throw new GatewayError(400, 'capability_not_supported', `The provider behind "${candidate.id}" cannot run OCR.`, { param: 'model' });
    return ocr.ocr({ model: candidate.upstreamModel, document: bytes, mimeType, pages, signal: attemptSignal });
  });
  return { result: value, route: served, bytes, mimeType };
}
