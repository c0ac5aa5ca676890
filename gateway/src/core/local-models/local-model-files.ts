import { mkdir, open, readdir, rm, stat, symlink } from 'node:fs/promises';
import { basename, isAbsolute, join, posix } from 'node:path';
import { LOCAL_LLM_PROVIDER, defaultChatRoute, localGgufRoute } from '../../config/defaults.js';
import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL, DEFAULT_TRANSCRIPTION_MODEL } from '../../wire/default-models.js';
import {
  discoverSpeechModels,
  listGgufModels,
  readGgufSummary,
  TESSDATA_DOWNLOADS,
  type GgufSummary,
} from '../../providers/index.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { LocalModelFile } from '../../wire/local-model-schemas.js';
import type { ModelInstaller } from './download-manager.js';

const SPEECH_DIR = 'speech';
const REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
/** Tesseract's model repositories on GitHub, and a language model's file name in them. */
const TESSDATA_REPO = /^tesseract-ocr\/tessdata(_fast|_best)?$/;
const TRAINEDDATA = /^[a-z]{3}(_[a-z]+)*\.traineddata$/;

function capabilitiesOf(summary: GgufSummary): LocalModelFile['capabilities'] {
  return summary.kind === 'embedding' ? ['embeddings'] : ['chat', 'completions', 'embeddings'];
}

async function folderSize(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true });
  const sizes = await Promise.all(
    entries.filter((entry) => entry.isFile()).map(async (entry) => (await stat(join(dir, entry.name))).size),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** Refuses a file that does not start with GGUF's magic bytes before any parser sees it. */
async function assertGgufMagic(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead < 4 || head.toString('latin1') !== 'GGUF') {
      throw new GatewayError(
        422,
        'invalid_gguf',
        `${basename(path)} is not a GGUF model file (it does not start with "GGUF").`,
        { param: 'path' },
      );
    }
  } finally {
    await handle.close();
  }
}

/**
 * The model files in the data folder's models/ directory: GGUF files (served by the local llama.cpp
 * provider, with chat, completions or embeddings by their metadata) and speech model folders under
 * models/speech/ (served by the transcription route). Installs downloaded files as routes at once
 * and deletes files with their routes.
 */
export class LocalModelFiles implements ModelInstaller {
  constructor(
    private readonly modelsDir: string,
    private readonly models: ModelRegistry,
  ) {}

  targetFor(repo: string, file: string): string {
    if (!REPO.test(repo) || repo.includes('..'))
      throw new GatewayError(422, 'invalid_repo', `"${repo}" is not a hub repository id (owner/name).`, {
        param: 'repo',
      });
    const parts = file.split('/');
    if (
      file.length === 0 ||
      file.startsWith('/') ||
      parts.some((part) => part === '' || part === '.' || part === '..') ||
      file.includes('\\')
    ) {
      throw new GatewayError(422, 'invalid_file', `"${file}" is not a file path inside the repository.`, {
        param: 'file',
      });
    }
    const name = parts[parts.length - 1];
    if (TESSDATA_REPO.test(repo)) {
      if (parts.length !== 1 || !TRAINEDDATA.test(name) || name === 'osd.traineddata')
        throw new GatewayError(
          422,
          'unsupported_model_file',
          `"${file}" is not a language model of ${repo}: name one as <code>.traineddata (GET /v1/local-models/ocr-languages lists them).`,
          { param: 'file' },
        );
      return posix.join(TESSDATA_DOWNLOADS, name);
    }
    if (name.toLowerCase().endsWith('.gguf')) {
      if (/^mmproj/i.test(name))
        throw new GatewayError(
          422,
          'unsupported_model_file',
          `${name} is a vision projector, not a model; download the model's main .gguf file.`,
          { param: 'file' },
        );
      return name;
    }
    if (/sherpa-onnx/i.test(repo) && /\.(onnx|txt)$/i.test(name))
      return posix.join(SPEECH_DIR, repo.split('/')[1], name);
    throw new GatewayError(
      422,
      'unsupported_model_file',
      `The local engines load .gguf files (llama.cpp) and sherpa-onnx speech models (.onnx and tokens.txt from a sherpa-onnx repository); "${file}" is neither.`,
      { param: 'file' },
    );
  }

  modelIdFor(target: string): string {
    if (target.startsWith(`${TESSDATA_DOWNLOADS}/`)) return DEFAULT_OCR_MODEL;
    return target.startsWith(`${SPEECH_DIR}/`) ? DEFAULT_TRANSCRIPTION_MODEL : basename(target).replace(/\.gguf$/i, '');
  }

  async install(target: string): Promise<void> {
    // The speech provider looks for new folders on each request, the OCR engines for new languages on each page.
    if (target.startsWith(`${SPEECH_DIR}/`) || target.startsWith(`${TESSDATA_DOWNLOADS}/`)) return;
    const name = this.modelIdFor(target);
    const summary = await readGgufSummary(join(this.modelsDir, target));
    this.route(name, summary);
  }

  /** Gives the GGUF files found at start the capabilities their metadata says (an embedding model does not chat). */
  async reconcile(): Promise<void> {
    for (const file of await listGgufModels(this.modelsDir)) {
      // Only the built-in per-file routes: a route the config file defines keeps what it says.
      const route = this.models
        .all()
        .find((candidate) => candidate.id === file.name && candidate.provider.id === LOCAL_LLM_PROVIDER);
      if (!route || route.upstreamModel !== file.name || route.aliases.length > 0 || route.pricing) continue;
      const summary = await readGgufSummary(file.path).catch(() => undefined);
      if (summary) this.route(file.name, summary);
    }
  }

  /**
   * Serves a GGUF file already on this computer (`path`, which the gateway process can read) without
   * copying it: a link to it in the models folder, routed at once. Deleting the model removes the
   * link, never the file.
   */
  async link(path: string): Promise<LocalModelFile> {
    if (!isAbsolute(path))
      throw new GatewayError(
        422,
        'invalid_path',
        `"${path}" is not an absolute path; give the full path of a .gguf file the gateway can read.`,
        { param: 'path' },
      );
    const name = basename(path);
    if (!name.toLowerCase().endsWith('.gguf'))
      throw new GatewayError(
        422,
        'unsupported_model_file',
        `${name} is not a .gguf file; the local engine loads GGUF models.`,
        { param: 'path' },
      );
    if (/^mmproj/i.test(name))
      throw new GatewayError(
        422,
        'unsupported_model_file',
        `${name} is a vision projector, not a model; choose the model's main .gguf file.`,
        { param: 'path' },
      );
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new GatewayError(
        422,
        'file_not_readable',
        `The gateway cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EACCES' ? 'permission denied' : error.message}.`,
        { param: 'path' },
      );
    });
    if (!info.isFile()) throw new GatewayError(422, 'file_not_readable', `${path} is not a file.`, { param: 'path' });
    await assertGgufMagic(path);
    const summary = await readGgufSummary(path).catch((error: Error) => {
      throw new GatewayError(
        422,
        'invalid_gguf',
        `${name} starts like a GGUF file but could not be read: ${error.message}`,
        { param: 'path' },
      );
    });
    const target = join(this.modelsDir, name);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    ) {
      throw new GatewayError(
        409,
        'model_file_exists',
        `The models folder already has a model named ${name}; delete it first or rename the file.`,
        { param: 'path' },
      );
    }
    await mkdir(this.modelsDir, { recursive: true });
    await symlink(path, target);
    this.route(this.modelIdFor(name), summary);
    return (await this.list()).find((file) => file.name === name)!;
  }

  private route(name: string, summary: GgufSummary): void {
    this.models.add(localGgufRoute(name, capabilitiesOf(summary)));
    const fallback = this.models.all().find((route) => route.id === DEFAULT_CHAT_MODEL);
    const defaultIsLocal = fallback?.provider.id === LOCAL_LLM_PROVIDER;
    if (summary.kind === 'language' && (!fallback || (defaultIsLocal && !fallback.capabilities.has('chat')))) {
      this.models.add(defaultChatRoute(name));
    } else if (summary.kind === 'embedding' && defaultIsLocal && fallback?.upstreamModel === name) {
      this.models.remove(DEFAULT_CHAT_MODEL);
    }
  }

  async list(): Promise<LocalModelFile[]> {
    const provider = this.models.all().find((route) => route.provider.id === LOCAL_LLM_PROVIDER)?.provider;
    const files: LocalModelFile[] = [];
    for (const file of await listGgufModels(this.modelsDir)) {
      const summary = await readGgufSummary(file.path).catch(() => undefined);
      files.push({
        name: `${file.name}.gguf`,
        model: file.name,
        kind: 'gguf',
        size_bytes: file.sizeBytes,
        architecture: summary?.architecture ?? null,
        quantization: summary?.quantization ?? null,
        context_length: summary?.contextLength ?? null,
        capabilities: summary ? capabilitiesOf(summary) : [],
        loaded: provider?.modelStatus?.(file.name).state === 'ready',
      });
    }
    for (const speech of await discoverSpeechModels(join(this.modelsDir, SPEECH_DIR))) {
      files.push({
        name: posix.join(SPEECH_DIR, speech.name),
        model: DEFAULT_TRANSCRIPTION_MODEL,
        kind: 'speech',
        size_bytes: await folderSize(speech.dir),
        architecture: speech.kind,
        quantization: Object.values(speech.files).some((path) => path?.includes('.int8.')) ? 'int8' : null,
        context_length: null,
        capabilities: ['transcription'],
        loaded: false,
      });
    }
    const tessdata = join(this.modelsDir, TESSDATA_DOWNLOADS);
    const languages = await readdir(tessdata).catch(() => [] as string[]);
    for (const name of languages.filter((candidate) => TRAINEDDATA.test(candidate)).sort()) {
      files.push({
        name: posix.join(TESSDATA_DOWNLOADS, name),
        model: DEFAULT_OCR_MODEL,
        kind: 'ocr_language',
        size_bytes: (await stat(join(tessdata, name))).size,
        architecture: 'tesseract-lstm',
        quantization: null,
        context_length: null,
        capabilities: [],
        loaded: false,
      });
    }
    return files;
  }

  /** Deletes a GGUF file (its routes go with it) or a speech model folder. */
  async delete(name: string): Promise<LocalModelFile> {
    const file = (await this.list()).find(
      (candidate) => candidate.name === name || (candidate.kind === 'gguf' && candidate.model === name),
    );
    if (!file)
      throw new GatewayError(
        404,
        'model_file_not_found',
        `No local model file named "${name}". GET /v1/local-models/files lists them.`,
        { param: 'name' },
      );
    if (file.kind === 'gguf') {
      const routes = this.models
        .all()
        .filter((route) => route.provider.id === LOCAL_LLM_PROVIDER && route.upstreamModel === file.model);
      for (const route of routes) this.models.remove(route.id);
      await routes[0]?.provider.releaseModel?.(file.model);
      await rm(join(this.modelsDir, file.name), { force: true });
      const next = (await listGgufModels(this.modelsDir))[0];
      if (routes.some((route) => route.id === DEFAULT_CHAT_MODEL) && next) {
        const summary = await readGgufSummary(next.path).catch(() => undefined);
        if (summary?.kind === 'language') this.models.add(defaultChatRoute(next.name));
      }
    } else {
      // An OCR language's link in the engines' folder is dropped on their next look.
      await rm(join(this.modelsDir, file.name), { recursive: true, force: true });
    }
    return file;
  }
}
