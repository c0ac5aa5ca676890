import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlamaCppProvider } from '../../src/providers/llamacpp/create-llamacpp-provider.js';
import type { ProviderInstance, ProviderLogger } from '../../src/providers/contracts/provider-instance.js';
import { writeTinyLlamaGguf } from './tiny-gguf.js';

export interface TinyModelFolder {
  dir: string;
  /** The generated model's name as a request names it (`tiny`, the file is `tiny.gguf`). */
  model: string;
  remove(): Promise<void>;
}

/** A temp folder holding `tiny.gguf`, the generated random-weight model. */
export async function createTinyModelFolder(): Promise<TinyModelFolder> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-llamacpp-'));
  await writeTinyLlamaGguf(join(dir, 'tiny.gguf'), { seed: 7 });
  return { dir, model: 'tiny', remove: () => rm(dir, { recursive: true, force: true }) };
}

export const silentLogger: ProviderLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A llamacpp provider over `dir` with one thread (much faster than more on small machines). */
export function createTinyLlamaCppProvider(dir: string, options: Record<string, unknown> = {}): ProviderInstance {
  return createLlamaCppProvider({
    id: 'local',
    dataDir: dir,
    logger: silentLogger,
    options: { type: 'llamacpp', models_dir: dir, threads: 1, ...options },
  });
}
