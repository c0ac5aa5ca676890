import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { GatewayError } from './gateway-error.js';

export interface DocumentSourceLimits {
  maxBytes: number;
  timeoutMs: number;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*)(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.com', 'instance-data']);

/** Link-local and cloud-metadata addresses: never fetched on a client's behalf (SSRF guard). */
export function isForbiddenAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number);
    return (a === 169 && b === 254) || v4 === '100.100.100.200' || a === 0;
  }
  const lower = address.toLowerCase();
  return lower.startsWith('fe8') || lower.startsWith('fe9') || lower.startsWith('fea') || lower.startsWith('feb') || lower === 'fd00:ec2::254' || lower === '::';
}

const guardedAgent = new Agent({
  connect: {
    lookup: (hostname, options, callback) => {
      lookup(hostname, { all: true })
        .then((addresses) => {
          const allowed = addresses.filter((entry) => !isForbiddenAddress(entry.address));
          if (allowed.length === 0) throw new GatewayError(422, 'url_not_allowed', `The document URL's host ${hostname} resolves to a link-local or cloud-metadata address, which the gateway never fetches.`, { param: 'image' });
          if ((options as { all?: boolean }).all) callback(null, allowed as never);
          else callback(null, allowed[0].address, allowed[0].family);
        })
        .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 4));
    },
  },
});

async function fetchDocument(url: URL, limits: DocumentSourceLimits, param: string): Promise<Buffer> {
  if (METADATA_HOSTS.has(url.hostname.toLowerCase()) || (isIP(url.hostname.replace(/^\[|\]$/g, '')) && isForbiddenAddress(url.hostname.replace(/^\[|\]$/g, '')))) {
    throw new GatewayError(422, 'url_not_allowed', `The document URL points at a link-local or cloud-metadata address (${url.hostname}), which the gateway never fetches.`, { param });
  }
  let response;
  try {
    response = await undiciFetch(url, { dispatcher: guardedAgent, signal: AbortSignal.timeout(limits.timeoutMs), redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof GatewayError) throw cause;
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new GatewayError(422, timedOut ? 'url_timeout' : 'url_unreachable', timedOut ? `Fetching the document URL took longer than ${limits.timeoutMs / 1000} s.` : `The document URL could not be fetched: ${(cause as Error | undefined)?.message ?? (error as Error).message}`, { param });
  }
  if (!response.ok) throw new GatewayError(422, 'url_fetch_failed', `Fetching the document URL answered HTTP ${response.status}.`, { param });
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) throw new GatewayError(413, 'document_too_large', `The document at the URL is larger than ${limits.maxBytes} bytes.`, { param });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += (chunk as Uint8Array).length;
    if (total > limits.maxBytes) throw new GatewayError(413, 'document_too_large', `The document at the URL is larger than ${limits.maxBytes} bytes.`, { param });
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** The bytes of a data URL's percent-encoded (not base64) payload: each %XX is one byte (RFC 2397), not UTF-8. */
function percentDecoded(payload: string, param: string): Buffer {
  if (/%(?![0-9a-f]{2})/i.test(payload)) {
    throw new GatewayError(422, 'invalid_data_url', "The data URL holds a '%' that is not followed by two hex digits; percent-encode it, or encode the bytes as base64 (data:<type>;base64,...).", { param });
  }
  return Buffer.concat(payload.split(/(%[0-9a-f]{2})/i).map((piece) => (/^%[0-9a-f]{2}$/i.test(piece) ? Buffer.from([parseInt(piece.slice(1), 16)]) : Buffer.from(piece, 'utf8'))));
}

/**
 * The bytes of a document given as a data URL, bare base64, or an http(s) URL (fetched with size and
 * time limits, never from link-local or cloud-metadata addresses).
 */
export async function loadDocumentSource(source: string, limits: DocumentSourceLimits, param = 'image'): Promise<Buffer> {
  const trimmed = source.trim();
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new GatewayError(422, 'invalid_url', 'The document URL is not a valid URL.', { param });
    }
    return fetchDocument(url, limits, param);
  }
  const dataUrl = DATA_URL.exec(trimmed);
  if (dataUrl) {
    const payload = trimmed.slice(dataUrl[0].length);
    if (!dataUrl[3]) return percentDecoded(payload, param);
    if (!BASE64.test(payload)) throw new GatewayError(422, 'invalid_base64', 'The data URL does not hold valid base64.', { param });
    return Buffer.from(payload, 'base64');
  }
  if (trimmed.length > 0 && BASE64.test(trimmed.slice(0, 4096)) && BASE64.test(trimmed)) return Buffer.from(trimmed, 'base64');
  throw new GatewayError(422, 'invalid_document', `'${param}' must be a data URL (data:image/png;base64,...), bare base64, or an http(s) URL.`, { param });
}
