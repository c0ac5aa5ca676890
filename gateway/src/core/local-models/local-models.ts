import { join } from 'node:path';
import type { ModelDownloadsRepository } from '../../store/model-downloads-repository.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import { DownloadManager, type DownloadManagerSettings } from './download-manager.js';
import { HubClient } from './hub-client.js';
import { LocalModelFiles } from './local-model-files.js';
import type { CatalogEntry, HubModel, LocalModelFile } from '../../wire/local-model-schemas.js';
import { MODEL_CATALOG } from './model-catalog.js';

export interface LocalModelsOptions {
  dataDir: string;
  hub: { endpoint: string; token?: string };
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
    models: ModelRegistry,
    repository: ModelDownloadsRepository,
    log: { warn(message: string): void },
  ) {
    const modelsDir = join(options.dataDir, 'models');
    this.hub = new HubClient(options.hub.endpoint, options.hub.token);
    this.files = new LocalModelFiles(modelsDir, models);
    this.downloads = new DownloadManager(
      this.hub,
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
