import { sniffMediaType } from '../../media/sniff-media-type.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import { fetchClientUrl } from '../url-fetch/fetch-client-url.js';

export interface DocumentSourceLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Which addresses an http(s) URL may be fetched from (server.url_fetch_allow). */
  addresses: AddressPolicy;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,/i;
/**
 * Base64 with whitespace anywhere and up to two `=` of padding, then whitespace. The character class
 * and the padding share no character, so a failing match backtracks once per character, never once
 * per pair (`[...\s]*={0,2}\s*$` took seconds on a long run of spaces ending in `!`).
 */
const BASE64 = /^[A-Za-z0-9+/\s]*(?:={1,2}\s*)?$/;
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The limits every client-given document source is loaded with. */
export function documentSourceLimits(services: {
  options: { server: { bodyLimitBytes: number } };
  urlFetchPolicy: AddressPolicy;
}): DocumentSourceLimits {
  return { maxBytes: services.options.server.bodyLimitBytes, timeoutMs: 15_000, addresses: services.urlFetchPolicy };
}

/** The value of a hex digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The bytes of a data URL's percent-encoded (not base64) payload: each %XX is one byte (RFC 2397), not
 * UTF-8; the rest is UTF-8. One pass into one buffer, ASCII written as it is read: the payload may be
 * tens of megabytes (splitting 16 MB into pieces took 8 s and 880 MB).
 */
function percentDecoded(payload: string, param: string): Buffer {
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(payload, 'utf8'));
  let length = 0;
  for (let at = 0; at < payload.length; at++) {
    const code = payload.charCodeAt(at);
    if (code === 37) {
      const high = hexValue(payload.charCodeAt(at + 1));
      const low = hexValue(payload.charCodeAt(at + 2));
      if (high < 0 || low < 0) {
        throw new GatewayError(
          422,
          'invalid_data_url',
          "The data URL holds a '%' that is not followed by two hex digits; percent-encode it, or encode the bytes as base64 (data:<type>;base64,...).",
          { param },
        );
      }
      bytes[length++] = (high << 4) | low;
      at += 2;
    } else if (code < 0x80) {
      bytes[length++] = code;
    } else {
      // A run of other characters, encoded together so a surrogate pair stays whole.
      let end = at + 1;
      while (end < payload.length && payload.charCodeAt(end) >= 0x80) end++;
      length += bytes.write(payload.slice(at, end), length, 'utf8');
      at = end - 1;
    }
  }
  return bytes.subarray(0, length);
}

/** A client's document, loaded and recognised by its leading bytes. */
export interface LoadedDocument {
  bytes: Buffer;
  /** An image type, or application/pdf when PDFs are accepted. */
  mediaType: string;
}

export interface LoadOptions {
  /** The request field named in errors. */
  param: string;
  /** `documents`: images and PDFs (OCR, document questions); `images`: images only (image analysis). */
  accept: 'documents' | 'images';
}

/**
 * A document given as a data URL, bare base64, an http(s) URL (see loadDocumentSource) or uploaded
 * bytes: refused when it is empty (422) or not a format the gateway reads (415).
 */
export async function loadDocument(
  source: string | Buffer,
  limits: DocumentSourceLimits,
  { param, accept }: LoadOptions,
): Promise<LoadedDocument> {
  const bytes = typeof source === 'string' ? await loadDocumentSource(source, limits, param) : source;
  const noun = accept === 'images' ? 'image' : 'document';
  if (bytes.length === 0) throw new GatewayError(422, 'empty_document', `The ${noun} is empty (0 bytes).`, { param });
  const mediaType = sniffMediaType(bytes);
  if (!mediaType || (accept === 'images' && mediaType === 'application/pdf')) {
    const formats =
      accept === 'images' ? 'PNG, JPEG, WebP, TIFF, BMP or GIF' : 'PNG, JPEG, WebP, TIFF, BMP, GIF or PDF';
    throw new GatewayError(415, 'unsupported_media_type', `The ${noun} is not a supported format: send ${formats}.`, {
      param,
    });
  }
  return { bytes, mediaType };
}

/**
 * The bytes of a document given as a data URL, bare base64, or an http(s) URL (fetched with size and
 * time limits, from public addresses only unless allowed: see fetchClientUrl).
 */
async function loadDocumentSource(source: string, limits: DocumentSourceLimits, param: string): Promise<Buffer> {
  const trimmed = source.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new GatewayError(422, 'invalid_url', 'The document URL is not a valid URL.', { param });
    }
    return fetchClientUrl(url, {
      policy: limits.addresses,
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      param,
    });
  }
  const dataUrl = DATA_URL.exec(trimmed);
  if (dataUrl) {
    const payload = trimmed.slice(dataUrl[0].length);
    if (!dataUrl[3]) return percentDecoded(payload, param);
    if (!BASE64.test(payload))
      throw new GatewayError(422, 'invalid_base64', 'The data URL does not hold valid base64.', { param });
    return Buffer.from(payload, 'base64');
  }
  const scheme = URL_SCHEME.exec(trimmed.slice(0, 64));
  if (scheme) {
    throw new GatewayError(
      422,
      'url_scheme_not_allowed',
      `'${param}': ${scheme[1].toLowerCase()}: URLs are not read; send a data URL, bare base64, or an http(s) URL.`,
      { param },
    );
  }
  if (trimmed.length > 0 && BASE64.test(trimmed.slice(0, 4096)) && BASE64.test(trimmed))
    return Buffer.from(trimmed, 'base64');
  throw new GatewayError(
    422,
    'invalid_document',
    `'${param}' must be a data URL (data:image/png;base64,...), bare base64, or an http(s) URL.`,
    { param },
  );
}
