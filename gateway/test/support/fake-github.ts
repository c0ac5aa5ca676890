/**
 * A local stand-in for GitHub where the download manager finds Tesseract's language models: the REST
 * API's GET /repos/{owner}/{repo}/contents/{path}?ref= (type, size, git blob `sha`, `download_url`)
 * and raw.githubusercontent.com's GET /{owner}/{repo}/{ref}/{path} with Range (206 and
 * Content-Range, as raw.githubusercontent.com answers). Faults: drop a transfer once at a byte
 * offset, serve a corrupted byte.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface GithubFile {
  content: Buffer;
  corrupt?: boolean;
}

export interface FakeGithub {
  /** The API's base URL: what GITHUB_API_URL names. */
  url: string;
  /** Serves `content` as `path` of `repo` at `ref`. */
  addFile(repo: string, ref: string, path: string, content: Buffer): void;
  /** The next transfer of `path` closes its connection after `offset` bytes. */
  dropOnceAt(path: string, offset: number): void;
  /** Every transfer of `path` has one byte flipped (the API still gives the true blob id). */
  corrupt(path: string): void;
  /** Range headers of the raw transfers, in order (undefined: the whole file). */
  readonly ranges: (string | undefined)[];
  close(): Promise<void>;
}

const gitBlobSha1 = (data: Buffer): string =>
  createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': data.length });
  response.end(data);
}

export async function startFakeGithub(): Promise<FakeGithub> {
  const files = new Map<string, GithubFile>();
  const drops = new Map<string, number>();
  const ranges: (string | undefined)[] = [];
  let url = '';
  const server = createServer((request, response) => {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(pathname);
    const contents = /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/.exec(path);
    if (request.method === 'GET' && contents) {
      const ref = searchParams.get('ref') ?? 'main';
      const file = files.get(`${contents[1]}@${ref}/${contents[2]}`);
      if (!file)
        return sendJson(response, 404, {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content',
          status: '404',
        });
      const name = contents[2].split('/').pop();
      return sendJson(response, 200, {
        type: 'file',
        encoding: 'none',
        size: file.content.length,
        name,
        path: contents[2],
        content: '',
        sha: gitBlobSha1(file.content),
        url: `${url}${path}?ref=${ref}`,
        download_url: `${url}/raw/${contents[1]}/${ref}/${contents[2]}`,
      });
    }
    const raw = /^\/raw\/([^/]+\/[^/]+)\/([^/]+)\/(.+)$/.exec(path);
    const file = raw && files.get(`${raw[1]}@${raw[2]}/${raw[3]}`);
    if (request.method !== 'GET' || !raw || !file) return sendJson(response, 404, { message: 'Not Found' });
    ranges.push(request.headers.range);
    let content = file.content;
    if (file.corrupt) {
      content = Buffer.from(content);
      content[content.length >> 1] ^= 0xff;
    }
    const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    const headers = {
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'content-length': String(content.length - start),
    };
    if (start > 0)
      response.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${content.length - 1}/${content.length}`,
      });
    else response.writeHead(200, headers);
    const drop = drops.get(raw[3]);
    if (drop !== undefined && drop > start) {
      drops.delete(raw[3]);
      response.write(content.subarray(start, drop));
      return void setTimeout(() => response.socket?.destroy(), 20);
    }
    response.end(content.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ranges,
    addFile(repo, ref, path, content) {
      files.set(`${repo}@${ref}/${path}`, { content });
    },
    dropOnceAt(path, offset) {
      drops.set(path, offset);
    },
    corrupt(path) {
      for (const [key, file] of files) if (key.endsWith(`/${path}`)) file.corrupt = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
