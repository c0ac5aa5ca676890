import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import { literalAddress, type AddressPolicy } from './address-policy.js';

export interface ClientUrlFetchOptions {
  policy: AddressPolicy;
  maxBytes: number;
  /** For the whole exchange, redirects included. */
  timeoutMs: number;
  /** The request field the URL came from, named in errors. */
  param: string;
  maxRedirects?: number;
  /** The caller's signal (the request's), aborting the fetch with it. */
  signal?: AbortSignal;
  /** A hop whose URL this accepts is fetched without the address check (a provider's own origin); its redirects are checked again. */
  trusted?: (url: URL) => boolean;
}

/** The policy a URL is checked against and the field it came from (named in errors). */
export type AddressCheck = Pick<ClientUrlFetchOptions, 'policy' | 'param'>;

/** A URL the address policy refuses; `reason` says why in words a user recognises. */
export class UrlRefusedError extends GatewayError {
  constructor(
    readonly url: URL,
    readonly reason: string,
    param: string,
  ) {
    super(
      422,
      'url_not_allowed',
      `'${param}': the gateway does not fetch ${url.protocol}//${url.host} because ${reason}. Send the content inline (base64 or a data URL), or add the address to server.url_fetch_allow in the config file if you trust it.`,
      { param },
    );
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.com', 'instance-data']);

/** Checks what a URL names before anything is sent: scheme, metadata names, and hosts given as IP literals. */
export function checkTarget(url: URL, options: AddressCheck, trusted: boolean): number {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError(
      422,
      'url_scheme_not_allowed',
      `'${options.param}': only http and https URLs are fetched, not ${url.protocol}.`,
      { param: options.param },
    );
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (trusted) return port;
  if (METADATA_HOSTS.has(url.hostname.toLowerCase()))
    throw new UrlRefusedError(url, 'it is a cloud-metadata host', options.param);
  const literal = literalAddress(url.hostname);
  const reason = literal === undefined ? undefined : options.policy.refusal(literal, port);
  if (reason) throw new UrlRefusedError(url, `it is ${reason}`, options.param);
  return port;
}

/**
 * A connection pool for one hop whose DNS answers are checked before the socket connects: every
 * resolved address must pass the policy, and the socket connects to exactly the addresses checked,
 * so a name cannot resolve to a public address for the check and to a private one for the connection.
 */
export function checkedAgent(url: URL, port: number, options: AddressCheck): Agent {
  return new Agent({
    connect: {
      lookup: (hostname, lookupOptions, callback) => {
        lookup(hostname, { all: true, verbatim: true })
          .then((addresses: LookupAddress[]) => {
            const blocked = addresses
              .map((entry) => options.policy.refusal(entry.address, port))
              .find((reason) => reason !== undefined);
            if (blocked || addresses.length === 0)
              throw new UrlRefusedError(
                url,
                blocked ? `its name resolves to ${blocked}` : 'its name resolves to no address',
                options.param,
              );
            if ((lookupOptions as { all?: boolean }).all) callback(null, addresses as never);
            else callback(null, addresses[0].address, addresses[0].family);
          })
          .catch((error: Error) => callback(error as NodeJS.ErrnoException, '', 4));
      },
    },
  });
}

function gatewayErrorIn(error: unknown): GatewayError | undefined {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if (current instanceof GatewayError) return current;
  }
  return undefined;
}

async function readLimited(body: AsyncIterable<Uint8Array>, maxBytes: number, param: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes)
      throw new GatewayError(413, 'document_too_large', `The document at the URL is larger than ${maxBytes} bytes.`, {
        param,
      });
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * GETs a URL a client gave (an image or document to read), following redirects itself so that
 * every hop passes the address policy, within a size and time limit.
 */
export async function fetchClientUrl(start: URL, options: ClientUrlFetchOptions): Promise<Buffer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const maxRedirects = options.maxRedirects ?? 5;
  let url = start;
  for (let hop = 0; ; hop += 1) {
    const trusted = options.trusted?.(url) === true;
    const port = checkTarget(url, options, trusted);
    const agent = trusted ? new Agent() : checkedAgent(url, port, options);
    try {
      const response = await request(url, {
        method: 'GET',
        dispatcher: agent,
        signal,
        headers: { accept: '*/*', 'user-agent': 'Switchyard' },
      });
      if (REDIRECTS.has(response.statusCode)) {
        await response.body.dump();
        const location = response.headers.location;
        if (typeof location !== 'string')
          throw new GatewayError(
            422,
            'url_fetch_failed',
            `Fetching '${options.param}' answered HTTP ${response.statusCode} without a Location.`,
            { param: options.param },
          );
        if (hop >= maxRedirects)
          throw new GatewayError(
            422,
            'too_many_redirects',
            `Fetching '${options.param}' was redirected more than ${maxRedirects} times.`,
            { param: options.param },
          );
        url = new URL(location, url);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new GatewayError(
          422,
          'url_fetch_failed',
          `Fetching the document URL answered HTTP ${response.statusCode}.`,
          { param: options.param },
        );
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > options.maxBytes) {
        response.body.destroy();
        throw new GatewayError(
          413,
          'document_too_large',
          `The document at the URL is larger than ${options.maxBytes} bytes.`,
          { param: options.param },
        );
      }
      return await readLimited(response.body, options.maxBytes, options.param);
    } catch (error) {
      const known = gatewayErrorIn(error);
      if (known) throw known;
      if (options.signal?.aborted) throw error;
      if (timeout.aborted)
        throw new GatewayError(
          422,
          'url_timeout',
          `Fetching the document URL took longer than ${options.timeoutMs / 1000} s.`,
          { param: options.param },
        );
      if (error instanceof TypeError && (error as { code?: string }).code === 'ERR_INVALID_URL')
        throw new GatewayError(422, 'invalid_url', `'${options.param}' was redirected to an invalid URL.`, {
          param: options.param,
        });
      throw new GatewayError(
        422,
        'url_unreachable',
        `The document URL could not be fetched: ${(error as Error).message}`,
        { param: options.param },
      );
    } finally {
      void agent.close().catch(() => undefined);
    }
  }
}
