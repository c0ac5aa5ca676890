import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Where, under the data folder's models/ directory, downloaded language models (`<code>.traineddata`) go. */
export const TESSDATA_DOWNLOADS = 'tessdata';

/** Where a language model came from. */
export type LanguageSource = 'system' | 'npm' | 'download';

const TRAINEDDATA = /^([a-z]{3}(?:_[a-z]+)*)\.traineddata$/;
/** tesseract.js' packages keep the integer "best" models here, gzipped. */
const NPM_MODEL_FOLDER = '4.0.0_best_int';

function codesIn(folder: string | undefined, pattern = TRAINEDDATA): string[] {
  if (!folder || !existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => pattern.exec(name)?.[1] ?? []);
}

/** The folder that holds the `@tesseract.js-data/<code>` packages (the English one is a dependency), if any. */
function npmScopeFolder(): string | undefined {
  try {
    return dirname(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')));
  } catch {
    return undefined;
  }
}

export interface TessdataFolderOptions {
  /** The engine's own folder: links to every model below, and what tesseract.js or `--tessdata-dir` reads. */
  folder: string;
  /** Models downloaded through the model download manager. */
  downloads: string;
  /** Debian's tesseract-ocr-<lang> packages' folder (the native command's own), once known. */
  system: () => Promise<string | undefined>;
  /** The `@tesseract.js-data` scope folder in node_modules; found by itself when not given. */
  npmScope?: string;
}

/**
 * The language models of three sources as one folder: Debian's tesseract-ocr-<lang> packages, the
 * npm registry's @tesseract.js-data/<lang> packages, and downloads. Both engines read the one folder
 * (`--tessdata-dir`, tesseract.js' `langPath`), which holds a link per language (an npm model is
 * unpacked, as the command cannot read gzip) and is brought up to date on each look, so a model
 * installed or downloaded while the gateway runs is read from its next page on.
 */
export class TessdataFolder {
  private systemFolder: string | undefined;
  private looked = false;
  private syncing: Promise<string[]> = Promise.resolve([]);
  private closed = false;
  private readonly npmScope: string | undefined;

  constructor(private readonly options: TessdataFolderOptions) {
    this.npmScope = options.npmScope ?? npmScopeFolder();
  }

  get path(): string {
    return this.options.folder;
  }

  /** Each installed language's source (the first that has it: Debian's, npm's, a download); undefined before the first look. */
  sources(): Map<string, LanguageSource> | undefined {
    if (!this.looked) return undefined;
    const sources = new Map<string, LanguageSource>();
    const add = (codes: string[], source: LanguageSource) => {
      for (const code of codes) if (!sources.has(code)) sources.set(code, source);
    };
    add(codesIn(this.systemFolder), 'system');
    if (this.npmScope && existsSync(this.npmScope))
      add(
        readdirSync(this.npmScope).filter((code) =>
          existsSync(join(this.npmScope as string, code, NPM_MODEL_FOLDER, `${code}.traineddata.gz`)),
        ),
        'npm',
      );
    add(codesIn(this.options.downloads), 'download');
    return sources;
  }

  /** The installed languages, with `osd` (script detection) when present, after bringing the folder up to date. */
  languages(): Promise<string[]> {
    if (this.closed) return this.syncing.catch(() => []);
    this.syncing = this.syncing.catch(() => []).then(() => this.sync());
    return this.syncing;
  }

  /**
   * Stops bringing the folder up to date and resolves once no update is running: the provider closes
   * it as it closes, so nothing writes there after, not even a look that an engine still warming
   * asks for later (it gets the languages of the last update).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.syncing.catch(() => undefined);
  }

  private async sync(): Promise<string[]> {
    if (!this.looked) {
      this.systemFolder = await this.options.system();
      this.looked = true;
    }
    const { folder } = this.options;
    await mkdir(folder, { recursive: true });
    const sources = this.sources() as Map<string, LanguageSource>;
    const present = new Set(await readdir(folder));
    // The command's output formats (tsv, ...) are configs beside the models.
    const configs = this.systemFolder && join(this.systemFolder, 'configs');
    if (configs && !present.has('configs') && existsSync(configs))
      await this.link(configs, join(folder, 'configs'), 'junction');
    for (const [code, source] of sources) {
      const name = `${code}.traineddata`;
      const target = join(folder, name);
      const wanted =
        source === 'system'
          ? join(this.systemFolder as string, name)
          : source === 'download'
            ? join(this.options.downloads, name)
            : undefined;
      if (present.has(name)) {
        // A link whose model was removed (a deleted download), or that another source now comes before, is replaced.
        const linked = await readlink(target).catch(() => undefined);
        if (existsSync(target) && (wanted === undefined || linked === undefined || linked === wanted)) continue;
        await rm(target, { force: true });
      }
      if (wanted) await this.link(wanted, target);
      else {
        const packed = await readFile(join(this.npmScope as string, code, NPM_MODEL_FOLDER, `${name}.gz`));
        // A name of its own, so two gateways sharing the data folder never rename each other's file.
        const unpacked = `${target}.${randomUUID()}.tmp`;
        await writeFile(unpacked, gunzipSync(packed));
        await rename(unpacked, target);
      }
    }
    for (const name of present) {
      const code = TRAINEDDATA.exec(name)?.[1];
      const entry = code && !sources.has(code) ? await lstat(join(folder, name)).catch(() => undefined) : undefined;
      if (entry?.isSymbolicLink()) await rm(join(folder, name), { force: true });
    }
    return [...sources.keys()].sort();
  }

  /** A symbolic link, or a copy where links are not allowed (Windows without developer mode). */
  private async link(from: string, to: string, type?: 'junction'): Promise<void> {
    await symlink(from, to, type).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return;
      if (error.code !== 'EPERM') throw error;
      await copyFile(from, to);
    });
  }
}
