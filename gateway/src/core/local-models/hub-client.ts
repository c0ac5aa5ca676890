import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import type { HubFile } from '../../wire/local-model-schemas.js';

export interface HubFileInfo {
  /** The commit the revision resolved to (X-Repo-Commit). */
  commit: string | null;
  sizeBytes: number;
  /** SHA-256 of an LFS file (X-Linked-Etag); null for small files kept in git itself. */
  sha256: string | null;
  /** The file's git blob id, for a file kept in git itself (the ETag the hub gives it); null for LFS files. */
  gitSha1: string | null;
  /** Where the bytes are: the file host the hub redirects to, or the resolve URL itself. */
  downloadUrl: string;
}

export interface HubSearchResult {
  repo: string;
  downloads: number;
  likes: number;
  tags: string[];
  gated: boolean;
}

export interface HubRangeResponse {
  /** 206 when the host honoured the Range header, 200 when it sends the whole file. */
  status: 200 | 206;
  body: Readable;
}

const MAX_REDIRECTS = 5;

const HUB_RETRY_AFTER_SECONDS = 30;
const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** The innermost error's code: undici wraps the socket's error in `cause`. */
function failureCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  let code: string | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string') code = current.code;
    current = current.cause as typeof current;
  }
  return code;
}

/** How refusals name a source: its setting, and what to do without it. */
export interface SourceNames {
  /** The environment variable that points at it. */
  variable: string;
  offline: string;
}

const HUB_NAMES: SourceNames = {
  variable: 'HF_ENDPOINT',
  offline: 'Without the hub, use a .gguf file already on this computer (Models → Use a file on this computer).',
};

/**
 * What went wrong on the way to the hub, in words (a DNS failure, a refused connection, TLS, a
 * timeout), with what to do; Retry-After says 30 s, since trying again in a second fixes none of them.
 */
export function hubUnreachable(endpoint: string, error: unknown, names: SourceNames = HUB_NAMES): GatewayError {
  const code = failureCode(error);
  const host = new URL(endpoint).host;
  const { variable, offline } = names;
  let what: string;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    what = `The model hub's address ${host} could not be resolved (DNS failure, ${code}): this computer may be offline, or ${variable} is wrong.`;
  else if (code === 'ECONNREFUSED')
    what = `The model hub at ${endpoint} refused the connection (ECONNREFUSED): nothing listens there; check ${variable}.`;
  else if (code && TLS_CODE.test(code))
    what = `The TLS connection to the model hub at ${host} failed (${code}): its certificate is not trusted here (a proxy that intercepts TLS?).`;
  else if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'ETIMEDOUT')
    what = `The model hub at ${host} did not answer in time (${code}): the network is slow or blocks it.`;
  else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    what = `The connection to the model hub at ${host} was cut (${code}).`;
  else
    what = `Cannot reach the model hub at ${endpoint} (${error instanceof Error ? error.message : String(error)}); check the network or ${variable}.`;
  return new GatewayError(502, 'hub_unreachable', `${what} ${offline}`, { retryAfter: HUB_RETRY_AFTER_SECONDS });
}

const isRedirect = (status: number): boolean =>
  status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function unquoteEtag(value: string | undefined): string | undefined {
  return value?.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/**
 * Hugging Face's hub API, as huggingface_hub uses it: HEAD on /{repo}/resolve/{revision}/{file}
 * without following redirects (X-Repo-Commit, X-Linked-Etag, X-Linked-Size, then a redirect to
 * the file host), ranged GETs on the file host, /api/models search and /api/models/{repo}/tree.
 * The token goes to the hub only, never to the file host it redirects to.
 */
export class HubClient {
  private readonly endpoint: string;

  constructor(
    endpoint: string,
    private readonly token: string | undefined,
    private readonly names: SourceNames = HUB_NAMES,
  ) {
    this.endpoint = endpoint.replace(/\/+$/, '');
  }

  get origin(): string {
    return this.endpoint;
  }

  private headersFor(url: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': 'switchyard', 'accept-encoding': 'identity', ...extra };
    if (this.token && new URL(url).origin === new URL(this.endpoint).origin)
      headers.authorization = `Bearer ${this.token}`;
    return headers;
  }

  private async call(
    url: string,
    method: 'GET' | 'HEAD',
    extra: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    try {
      return await request(url, {
        method,
        headers: this.headersFor(url, extra),
        signal,
        headersTimeout: 30_000,
        bodyTimeout: 60_000,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw hubUnreachable(this.endpoint, error, this.names);
    }
  }

  private async json<T>(path: string): Promise<T> {
    const response = await this.call(`${this.endpoint}${path}`, 'GET', { accept: 'application/json' });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw this.refusal(response.statusCode, path, response.headers);
    }
    return (await response.body.json()) as T;
  }

  private refusal(status: number, what: string, headers: Dispatcher.ResponseData['headers']): GatewayError {
    const hubCode = header(headers, 'x-error-code');
    if (status === 401 && hubCode !== 'GatedRepo') {
      return new GatewayError(
        403,
        'hub_access_denied',
        `The hub asks for a token for ${what} (401${hubCode ? `, ${hubCode}` : ''}): ${this.token ? 'HF_TOKEN was refused; set it to a valid token' : 'the repository is private or gated; set HF_TOKEN to a token that may read it'}.`,
        { param: 'repo' },
      );
    }
    if (status === 401 || status === 403 || hubCode === 'GatedRepo') {
      return new GatewayError(
        403,
        'hub_access_denied',
        `The hub refused ${what} (${status}${hubCode ? `, ${hubCode}` : ''}). For a gated or private repository, accept its terms on the hub and set HF_TOKEN to a token that may read it.`,
        { param: 'repo' },
      );
    }
    if (status === 404) {
      return new GatewayError(
        404,
        'hub_not_found',
        `The hub has no ${what} (${hubCode ?? '404'}). Check the repository, file name and revision.`,
        { param: 'file' },
      );
    }
    return new GatewayError(
      502,
      'hub_error',
      `The hub answered ${status} for ${what}${status >= 500 ? ': the hub is having trouble; try again later' : ''}.`,
    );
  }

  async search(query: string, limit: number): Promise<HubSearchResult[]> {
    type Raw = { id: string; downloads?: number; likes?: number; tags?: string[]; gated?: boolean | string };
    const params = (extra: Record<string, string>) =>
      new URLSearchParams({
        search: query,
        limit: String(limit),
        sort: 'downloads',
        direction: '-1',
        ...extra,
      }).toString();
    const [gguf, named] = await Promise.all([
      this.json<Raw[]>(`/api/models?${params({ filter: 'gguf' })}`),
      this.json<Raw[]>(`/api/models?${params({})}`),
    ]);
    const seen = new Set<string>();
    const results: HubSearchResult[] = [];
    for (const raw of [...gguf, ...named.filter((model) => /sherpa-onnx/i.test(model.id))]) {
      if (seen.has(raw.id)) continue;
      seen.add(raw.id);
      results.push({
        repo: raw.id,
        downloads: raw.downloads ?? 0,
        likes: raw.likes ?? 0,
        tags: raw.tags ?? [],
        gated: raw.gated !== undefined && raw.gated !== false,
      });
    }
    return results.slice(0, limit);
  }

  /** The files of a repository at a revision, with sizes and (for LFS files) SHA-256. */
  async files(repo: string, revision: string): Promise<HubFile[]> {
    type Entry = { type: string; path: string; size: number; lfs?: { oid: string; size: number } };
    const entries = await this.json<Entry[]>(`/api/models/${repo}/tree/${encodeURIComponent(revision)}?recursive=true`);
    return entries
      .filter((entry) => entry.type === 'file')
      .map((entry) => ({
        path: entry.path,
        size_bytes: entry.lfs?.size ?? entry.size,
        sha256: entry.lfs?.oid ?? null,
      }));
  }

  resolveUrl(repo: string, revision: string, file: string): string {
    return `${this.endpoint}/${repo}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** HEAD on the resolve URL; relative redirects (a renamed repository) are followed, the file host's is not. */
  async fileInfo(repo: string, revision: string, file: string): Promise<HubFileInfo> {
    let url = this.resolveUrl(repo, revision, file);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await this.call(url, 'HEAD');
      await response.body.dump();
      const location = header(response.headers, 'location');
      const next = location ? new URL(location, url) : undefined;
      if (
        isRedirect(response.statusCode) &&
        next &&
        next.origin === new URL(this.endpoint).origin &&
        next.pathname.includes('/resolve/')
      ) {
        url = next.toString();
        continue;
      }
      if (response.statusCode !== 200 && !(isRedirect(response.statusCode) && next))
        throw this.refusal(response.statusCode, `${repo}/${file}@${revision}`, response.headers);
      const linkedEtag = unquoteEtag(header(response.headers, 'x-linked-etag'));
      const etag = linkedEtag ?? unquoteEtag(header(response.headers, 'etag'));
      const size = Number(header(response.headers, 'x-linked-size') ?? header(response.headers, 'content-length'));
      if (!Number.isSafeInteger(size) || size < 0)
        throw new GatewayError(502, 'hub_error', `The hub did not say how large ${repo}/${file} is.`);
      return {
        commit: header(response.headers, 'x-repo-commit') ?? null,
        sizeBytes: size,
        sha256: etag && /^[0-9a-f]{64}$/i.test(etag) ? etag.toLowerCase() : null,
        gitSha1: !linkedEtag && etag && /^[0-9a-f]{40}$/i.test(etag) ? etag.toLowerCase() : null,
        downloadUrl: next?.toString() ?? url,
      };
    }
    throw new GatewayError(502, 'hub_error', `The hub redirected ${repo}/${file} too many times.`);
  }

  /** The file's bytes from `start` on, following the file host's redirects. */
  async openRange(url: string, start: number, signal: AbortSignal): Promise<HubRangeResponse> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await this.call(current, 'GET', start > 0 ? { range: `bytes=${start}-` } : {}, signal);
      const location = header(response.headers, 'location');
      if (isRedirect(response.statusCode) && location) {
        await response.body.dump();
        current = new URL(location, current).toString();
        continue;
      }
      if (response.statusCode === 206 || response.statusCode === 200)
        return { status: response.statusCode, body: response.body };
      await response.body.dump();
      throw this.refusal(response.statusCode, url, response.headers);
    }
    throw new GatewayError(502, 'hub_error', 'The file host redirected too many times.');
  }
}
