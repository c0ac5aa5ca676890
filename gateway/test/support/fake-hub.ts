/**
 * A local stand-in for Hugging Face's hub, speaking the endpoints huggingface_hub uses:
 * GET /api/models (search), GET /api/models/{repo} and /api/models/{repo}/tree/{revision} (sizes,
 * LFS SHA-256), HEAD and GET /{repo}/resolve/{revision}/{file} (X-Repo-Commit, X-Linked-Etag,
 * X-Linked-Size, a 302 to a separate file host for LFS files), and a file host with Range support.
 * Faults: hold the transfer at a byte offset, drop the connection at one, corrupt a byte, claim a
 * size, require a token (a gated repository).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface HubFile {
  content: Buffer;
  sha256: string;
  gitOid: string;
  lfs: boolean;
  /** Size the hub claims instead of the real one. */
  claimedSize?: number;
  corrupt?: boolean;
}

interface HubRepo {
  commit: string;
  files: Map<string, HubFile>;
  gatedToken?: string;
  tags: string[];
}

export interface RangeRequest {
  path: string;
  range: string | undefined;
  authorization: string | undefined;
}

export interface FakeHub {
  /** The hub's origin: what HF_ENDPOINT names. */
  url: string;
  /** The separate host LFS downloads are redirected to. */
  fileHostUrl: string;
  addRepo(repo: string, files: Record<string, Buffer>, options?: { gatedToken?: string; tags?: string[] }): void;
  /** Pauses every transfer of `file` after `offset` bytes until `release()`. */
  holdAt(file: string, offset: number): void;
  release(): void;
  /** The next transfer of `file` closes its connection after `offset` bytes. */
  dropOnceAt(file: string, offset: number): void;
  corrupt(repo: string, file: string): void;
  claimSize(repo: string, file: string, bytes: number): void;
  /** GET requests the file host received. */
  readonly transfers: RangeRequest[];
  /** Authorization headers seen by the hub, in order. */
  readonly hubAuthorizations: (string | undefined)[];
  close(): Promise<void>;
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const gitOid = (data: Buffer): string => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(data),
    ...headers,
  });
  response.end(data);
}

export async function startFakeHub(): Promise<FakeHub> {
  const repos = new Map<string, HubRepo>();
  const transfers: RangeRequest[] = [];
  const hubAuthorizations: (string | undefined)[] = [];
  const holds = new Map<string, number>();
  const drops = new Map<string, number>();
  let releaseHolds: () => void = () => undefined;
  let held = new Promise<void>((resolve) => (releaseHolds = resolve));

  const blobs = new Map<string, { name: string; file: HubFile }>();

  const fileHost = createServer((request, response) => {
    const match = /^\/blobs\/([0-9a-f]{64})$/.exec(new URL(request.url ?? '/', 'http://x').pathname);
    const blob = match ? blobs.get(match[1]) : undefined;
    transfers.push({
      path: request.url ?? '',
      range: request.headers.range,
      authorization: request.headers.authorization,
    });
    if (!blob) return sendJson(response, 404, { error: 'NoSuchKey' });
    void serveBytes(request, response, blob.name, blob.file);
  });

  async function serveBytes(
    request: IncomingMessage,
    response: ServerResponse,
    name: string,
    file: HubFile,
    extraHeaders: Record<string, string> = {},
  ): Promise<void> {
    let content = file.content;
    if (file.corrupt) {
      content = Buffer.from(content);
      content[Math.floor(content.length / 2)] ^= 0xff;
    }
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= content.length && content.length > 0) {
      response.writeHead(416, { 'content-range': `bytes */${content.length}` });
      return void response.end();
    }
    const headers = {
      ...extraHeaders,
      'accept-ranges': 'bytes',
      etag: `"${file.lfs ? file.sha256 : file.gitOid}"`,
      'content-type': 'application/octet-stream',
      'content-length': String(content.length - start),
    };
    if (range)
      response.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${content.length - 1}/${content.length}`,
      });
    else response.writeHead(200, headers);
    const drop = drops.get(name);
    const hold = holds.get(name);
    let offset = start;
    const chunk = 16 * 1024;
    while (offset < content.length) {
      if (response.destroyed) return;
      let end = Math.min(offset + chunk, content.length);
      if (drop !== undefined && offset < drop && end >= drop) {
        drops.delete(name);
        response.write(content.subarray(offset, drop));
        await new Promise((resolve) => setTimeout(resolve, 20));
        return void response.socket?.destroy();
      }
      if (hold !== undefined && offset < hold && end > hold) end = hold;
      if (hold !== undefined && offset === hold) {
        await held;
        if (response.destroyed) return;
      }
      if (!response.write(content.subarray(offset, end)))
        await new Promise((resolve) => response.once('drain', resolve));
      offset = end;
    }
    response.end();
  }

  const fileHostUrl = await listen(fileHost);

  const hub = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    hubAuthorizations.push(request.headers.authorization);
    const path = decodeURIComponent(url.pathname);
    if (request.method === 'GET' && path === '/api/models') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const filter = url.searchParams.get('filter');
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const found = [...repos]
        .filter(([id, repo]) => id.toLowerCase().includes(search) && (!filter || repo.tags.includes(filter)))
        .slice(0, limit)
        .map(([id, repo]) => ({
          _id: id,
          id,
          modelId: id,
          likes: 3,
          downloads: 42,
          private: false,
          gated: repo.gatedToken ? 'manual' : false,
          tags: repo.tags,
          createdAt: '2025-01-01T00:00:00.000Z',
        }));
      return sendJson(response, 200, found);
    }
    const api = /^\/api\/models\/([^/]+\/[^/]+)(?:\/tree\/([^/]+))?$/.exec(path);
    if (request.method === 'GET' && api) {
      const repo = repos.get(api[1]);
      if (!repo)
        return sendJson(response, 404, { error: 'Repository not found' }, { 'x-error-code': 'RepositoryNotFound' });
      if (api[2] === undefined) {
        return sendJson(response, 200, {
          _id: api[1],
          id: api[1],
          sha: repo.commit,
          gated: repo.gatedToken ? 'manual' : false,
          tags: repo.tags,
          siblings: [...repo.files.keys()].map((rfilename) => ({ rfilename })),
        });
      }
      return sendJson(
        response,
        200,
        [...repo.files].map(([name, file]) => ({
          type: 'file',
          oid: file.gitOid,
          size: file.lfs ? 134 : file.content.length,
          path: name,
          ...(file.lfs
            ? { lfs: { oid: file.sha256, size: file.claimedSize ?? file.content.length, pointerSize: 134 } }
            : {}),
        })),
      );
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path);
    if ((request.method === 'HEAD' || request.method === 'GET') && resolve) {
      const repo = repos.get(resolve[1]);
      if (!repo)
        return sendJson(response, 404, { error: 'Repository not found' }, { 'x-error-code': 'RepositoryNotFound' });
      if (repo.gatedToken && request.headers.authorization !== `Bearer ${repo.gatedToken}`) {
        return sendJson(
          response,
          401,
          { error: 'Access to this model is restricted.' },
          { 'x-error-code': 'GatedRepo' },
        );
      }
      if (resolve[2] !== 'main' && resolve[2] !== repo.commit)
        return sendJson(response, 404, { error: 'Revision not found' }, { 'x-error-code': 'RevisionNotFound' });
      const file = repo.files.get(resolve[3]);
      if (!file) return sendJson(response, 404, { error: 'Entry not found' }, { 'x-error-code': 'EntryNotFound' });
      const size = String(file.claimedSize ?? file.content.length);
      if (file.lfs) {
        response.writeHead(302, {
          location: `${fileHostUrl}/blobs/${file.sha256}`,
          'x-repo-commit': repo.commit,
          'x-linked-etag': `"${file.sha256}"`,
          'x-linked-size': size,
          etag: `"${file.sha256}"`,
          'content-length': '0',
        });
        return void response.end();
      }
      if (request.method === 'GET')
        return void serveBytes(request, response, resolve[3], file, { 'x-repo-commit': repo.commit });
      response.writeHead(200, {
        'x-repo-commit': repo.commit,
        etag: `"${file.gitOid}"`,
        'content-length': size,
        'accept-ranges': 'bytes',
      });
      return void response.end();
    }
    sendJson(response, 404, { error: 'Not found' });
  });
  const url = await listen(hub);

  const fileOf = (repo: string, name: string): HubFile => {
    const file = repos.get(repo)?.files.get(name);
    if (!file) throw new Error(`fake hub: no ${repo}/${name}`);
    return file;
  };

  return {
    url,
    fileHostUrl,
    transfers,
    hubAuthorizations,
    addRepo(repo, files, options = {}) {
      const entries = new Map<string, HubFile>();
      for (const [name, content] of Object.entries(files)) {
        const file: HubFile = {
          content,
          sha256: sha256(content),
          gitOid: gitOid(content),
          lfs: /\.(gguf|onnx)$/.test(name),
        };
        entries.set(name, file);
        if (file.lfs) blobs.set(file.sha256, { name, file });
      }
      const tags =
        options.tags ?? (Object.keys(files).some((name) => name.endsWith('.gguf')) ? ['gguf', 'text-generation'] : []);
      repos.set(repo, {
        commit: randomBytes(20).toString('hex'),
        files: entries,
        gatedToken: options.gatedToken,
        tags,
      });
    },
    holdAt(file, offset) {
      holds.set(file, offset);
    },
    release() {
      holds.clear();
      releaseHolds();
      held = new Promise<void>((resolve) => (releaseHolds = resolve));
    },
    dropOnceAt(file, offset) {
      drops.set(file, offset);
    },
    corrupt(repo, file) {
      fileOf(repo, file).corrupt = true;
    },
    claimSize(repo, file, bytes) {
      fileOf(repo, file).claimedSize = bytes;
    },
    async close() {
      releaseHolds();
      for (const server of [hub, fileHost]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
