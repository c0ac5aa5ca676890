import { join } from 'node:path';
import type { ModelDownloadsRepository } from '../../store/model-downloads-repository.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import { DownloadManager, type DownloadManagerSettings } from './download-manager.js';
import { HubClient } from './hub-client.js';
import { LocalModelFiles } from './local-model-files.js';
import type { CatalogEntry, HubModel, LocalModelFile, OcrLanguage } from '../../wire/local-model-schemas.js';
import { MODEL_CATALOG } from './model-catalog.js';
import { GithubContents } from './github-contents.js';
import { OCR_LANGUAGES, TESSDATA_REPO, TESSDATA_REVISION } from './ocr-language-catalog.js';
import { DEFAULT_OCR_MODEL } from '../../wire/default-models.js';

export interface LocalModelsOptions {
  dataDir: string;
  hub: { endpoint: string; token?: string };
  /** GitHub's REST API, where Tesseract's language models are found (GITHUB_API_URL; default api.github.com). */
  githubApi?: string;
  downloads?: Partial<DownloadManagerSettings>;
}

const SEARCH_LIMIT = 10;
const LOADABLE = /\.gguf$|\.onnx$|tokens\.txt$/i;

/** The first-run experience's core: the catalog, hub search, the download manager and the local files. */
export class LocalModels {
  readonly hub: HubClient;
  readonly files: LocalModelFiles;
  readonly downloads: DownloadManager;

  constructor(
    options: LocalModelsOptions,
    private readonly models: ModelRegistry,
    repository: ModelDownloadsRepository,
    log: { warn(message: string): void },
  ) {
    const modelsDir = join(options.dataDir, 'models');
    this.hub = new HubClient(options.hub.endpoint, options.hub.token);
    this.files = new LocalModelFiles(modelsDir, models);
    const github = new GithubContents(options.githubApi ?? 'https://api.github.com');
    this.downloads = new DownloadManager(
      (repo) => (repo.startsWith('tesseract-ocr/') ? github : this.hub),
      repository,
      this.files,
      {
        modelsDir,
        concurrency: 2,
        retryDelaysMs: [500, 1000, 2000, 4000, 8000, 16000],
        diskReserveBytes: 256 * 1024 * 1024,
        ...options.downloads,
      },
      log,
    );
  }

  catalog(): readonly CatalogEntry[] {
    return MODEL_CATALOG;
  }

  /**
   * Every language Tesseract has a model for: installed (from Debian's packages, npm's or a
   * download, as the local OCR engine found them) or to download from tesseract-ocr/tessdata_fast.
   */
  ocrLanguages(): OcrLanguage[] {
    const ocr = this.models
      .all()
      .filter((route) => route.capabilities.has('ocr'))
      .sort((a, b) => Number(b.id === DEFAULT_OCR_MODEL) - Number(a.id === DEFAULT_OCR_MODEL))
      .find((route) => route.provider.capabilities.ocr?.languageSources)?.provider.capabilities.ocr;
    const sources = ocr?.languageSources?.() ?? new Map<string, 'system' | 'npm' | 'download'>();
    return OCR_LANGUAGES.map(([code, name, sizeBytes]) => ({
      object: 'local_model.ocr_language' as const,
      code,
      name,
      installed: sources.has(code),
      source: sources.get(code) ?? null,
      size_bytes: sizeBytes,
      repo: TESSDATA_REPO,
      file: `${code}.traineddata`,
      revision: TESSDATA_REVISION,
    }));
  }

  /** The hub's models matching `query` that the local engines load (GGUF, sherpa-onnx), with their loadable files. */
  async search(query: string): Promise<HubModel[]> {
    const found = await this.hub.search(query, SEARCH_LIMIT);
    return Promise.all(
      found.map(async (model) => {
        const files = await this.hub.files(model.repo, 'main').catch(() => []);
        return {
          ...model,
          files: files.filter((file) => LOADABLE.test(file.path) && !/(^|\/)mmproj/i.test(file.path)),
        };
      }),
    );
  }

  /** Serves a GGUF file already on this computer, where it lies (see LocalModelFiles.link). */
  linkFile(path: string): Promise<LocalModelFile> {
    return this.files.link(path);
  }

  /** Deletes a local model file with its routes; its finished download is marked so, and may be started again. */
  async deleteFile(name: string): Promise<LocalModelFile> {
    const file = await this.files.delete(name);
    this.downloads.forgetCompleted(file.name);
    return file;
  }

  async start(): Promise<void> {
    await this.files.reconcile();
    await this.downloads.restore();
  }

  close(): Promise<void> {
    return this.downloads.close();
  }
}
