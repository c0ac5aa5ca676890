import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export type SpeechModelKind = 'whisper' | 'transducer' | 'paraformer' | 'sense_voice';

/** Absolute paths of the files a model kind needs; which keys are set depends on `kind`. */
export interface SpeechModelFiles {
  tokens: string;
  encoder?: string;
  decoder?: string;
  joiner?: string;
  model?: string;
}

export interface SpeechModel {
  /** The folder name; the route's `upstream_model` selects a model by it. */
  name: string;
  kind: SpeechModelKind;
  dir: string;
  files: SpeechModelFiles;
}

/**
 * Picks the file among `candidates` matching `role` (encoder, decoder, ...). int8-quantised
 * exports are preferred: sherpa-onnx ships both, and int8 loads and decodes faster on a CPU.
 */
function pick(candidates: string[], role: RegExp): string | undefined {
  const matches = candidates.filter((file) => role.test(file)).sort();
  return matches.find((file) => file.includes('.int8.')) ?? matches[0];
}

function classify(name: string, dir: string, files: string[]): SpeechModel | null {
  const onnx = files.filter((file) => file.endsWith('.onnx'));
  const full = (file: string | undefined): string | undefined =>
    file === undefined ? undefined : path.join(dir, file);
  const encoder = pick(onnx, /(^|[-_.])encoder([-_.]|$)/);
  const decoder = pick(onnx, /(^|[-_.])decoder([-_.]|$)/);
  const joiner = pick(onnx, /(^|[-_.])joiner([-_.]|$)/);
  const tokens = files.includes('tokens.txt')
    ? 'tokens.txt'
    : files.filter((file) => file.endsWith('-tokens.txt')).sort()[0];
  if (tokens === undefined) return null;
  const tokensPath = path.join(dir, tokens);

  if (encoder && decoder && joiner) {
    return {
      name,
      kind: 'transducer',
      dir,
      files: { tokens: tokensPath, encoder: full(encoder), decoder: full(decoder), joiner: full(joiner) },
    };
  }
  if (encoder && decoder) {
    return {
      name,
      kind: 'whisper',
      dir,
      files: { tokens: tokensPath, encoder: full(encoder), decoder: full(decoder) },
    };
  }
  const model = pick(onnx, /^model([-_.].*)?\.onnx$/);
  if (model) {
    const kind = /sense[-_]?voice/i.test(name) ? 'sense_voice' : 'paraformer';
    return { name, kind, dir, files: { tokens: tokensPath, model: full(model) } };
  }
  return null;
}

/** Whether an entry is a folder (or file), following symbolic links: users often link models in from elsewhere. */
async function isKind(dir: string, entry: Dirent, kind: 'directory' | 'file'): Promise<boolean> {
  if (!entry.isSymbolicLink()) return kind === 'directory' ? entry.isDirectory() : entry.isFile();
  const target = await stat(path.join(dir, entry.name)).catch(() => null);
  return target !== null && (kind === 'directory' ? target.isDirectory() : target.isFile());
}

async function namesOf(dir: string, entries: Dirent[], kind: 'directory' | 'file'): Promise<string[]> {
  const checked = await Promise.all(
    entries.map(async (entry) => ((await isKind(dir, entry, kind)) ? entry.name : null)),
  );
  return checked.filter((name): name is string => name !== null).sort((a, b) => a.localeCompare(b));
}

/**
 * The speech models in `dir`: each sub-folder holding a recognisable sherpa-onnx offline model
 * (Whisper encoder/decoder, transducer encoder/decoder/joiner, or a single paraformer/SenseVoice
 * model, each with its tokens file). A missing `dir` means no models; unrecognised folders are skipped.
 */
export async function discoverSpeechModels(dir: string): Promise<SpeechModel[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const models: SpeechModel[] = [];
  for (const name of await namesOf(dir, entries, 'directory')) {
    const modelDir = path.join(dir, name);
    const files = await namesOf(modelDir, await readdir(modelDir, { withFileTypes: true }), 'file');
    const model = classify(name, modelDir, files);
    if (model) models.push(model);
  }
  return models;
}
