import { request } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import { HubClient, hubUnreachable, type HubFileInfo, type HubRangeResponse, type SourceNames } from './hub-client.js';
import type { DownloadSource } from './download-manager.js';

const GITHUB_NAMES: SourceNames = {
  variable: 'GITHUB_API_URL',
  offline:
    "Without GitHub, install the language's model another way: Debian's tesseract-ocr-<lang> package or npm's @tesseract.js-data/<lang>.",
};

interface ContentsEntry {
  type?: string;
  sha?: string;
  size?: number;
  download_url?: string | null;
}

/**
 * Files of a public GitHub repository, as GitHub's REST API gives them: GET
 * /repos/{owner}/{repo}/contents/{path}?ref={revision} says the file's size, its git blob id (the
 * checksum the download is verified against) and its `download_url` on raw.githubusercontent.com,
 * which honours Range, so a download resumes where it stopped.
 */
export class GithubContents implements DownloadSource {
  private readonly endpoint: string;
  private readonly files: HubClient;

  constructor(apiEndpoint: string) {
    this.endpoint = apiEndpoint.replace(/\/+$/, '');
    // No token: nothing is sent to the file host but the Range.
    this.files = new HubClient(this.endpoint, undefined, GITHUB_NAMES);
  }

  async fileInfo(repo: string, revision: string, file: string): Promise<HubFileInfo> {
    const path = file.split('/').map(encodeURIComponent).join('/');
    const url = `${this.endpoint}/repos/${repo}/contents/${path}?ref=${encodeURIComponent(revision)}`;
    const response = await request(url, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'switchyard',
      },
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    }).catch((error: unknown) => {
      throw hubUnreachable(this.endpoint, error, GITHUB_NAMES);
    });
    if (response.statusCode === 404) {
      await response.body.dump();
      throw new GatewayError(
        404,
        'hub_not_found',
        `GitHub has no ${file} in ${repo} at ${revision}. Check the language code (GET /v1/local-models/ocr-languages lists them).`,
        { param: 'file' },
      );
    }
    if (response.statusCode !== 200) {
      await response.body.dump();
      const limited = response.statusCode === 403 || response.statusCode === 429;
      throw new GatewayError(
        502,
        'hub_error',
        `GitHub answered ${response.statusCode} for ${repo}/${file}${limited ? ': its API limits requests without a token to 60 an hour; try again later' : ''}.`,
        { retryAfter: limited ? 60 : undefined },
      );
    }
    const entry = (await response.body.json()) as ContentsEntry;
    if (
      entry.type !== 'file' ||
      !entry.download_url ||
      !Number.isSafeInteger(entry.size) ||
      !/^[0-9a-f]{40}$/.test(entry.sha ?? '')
    )
      throw new GatewayError(502, 'hub_error', `GitHub's answer for ${repo}/${file} names no downloadable file.`);
    return {
      commit: null,
      sizeBytes: entry.size as number,
      sha256: null,
      gitSha1: entry.sha as string,
      downloadUrl: entry.download_url,
    };
  }

  openRange(url: string, start: number, signal: AbortSignal): Promise<HubRangeResponse> {
    return this.files.openRange(url, start, signal);
  }
}
