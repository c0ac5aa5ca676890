import { readdir } from 'node:fs/promises';
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
  const full = (file: string | undefined): string | undefined => (file === undefined ? undefined : path.join(dir, file));
  const encoder = pick(onnx, /(^|[-_.])encoder([-_.]|$)/);
  const decoder = pick(onnx, /(^|[-_.])decoder([-_.]|$)/);
  const joiner = pick(onnx, /(^|[-_.])joiner([-_.]|$)/);
  const tokens = files.includes('tokens.txt') ? 'tokens.txt' : files.filter((file) => file.endsWith('-tokens.txt')).sort()[0];
  if (tokens === undefined) return null;
  const tokensPath = path.join(dir, tokens);

  if (encoder && decoder && joiner) {
    return { name, kind: 'transducer', dir, files: { tokens: tokensPath, encoder: full(encoder), decoder: full(decoder), joiner: full(joiner) } };
  }
  if (encoder && decoder) {
    return { name, kind: 'whisper', dir, files: { tokens: tokensPath, encoder: full(encoder), decoder: full(decoder) } };
  }
  const model = pick(onnx, /^model([-_.].*)?\.onnx$/);
  if (model) {
    const kind = /sense[-_]?voice/i.test(name) ? 'sense_voice' : 'paraformer';
    return { name, kind, dir, files: { tokens: tokensPath, model: full(model) } };
  }
  return null;
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
  for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const modelDir = path.join(dir, entry.name);
    const files = (await readdir(modelDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    const model = classify(entry.name, modelDir, files);
    if (model) models.push(model);
  }
  return models;
}
