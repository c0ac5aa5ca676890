import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ProviderOptions } from '../contracts/provider-instance.js';

export interface LlamaCppOptions {
  modelsDir: string;
  threads: number;
  contextSize: number;
  /** 0 keeps models loaded until close. */
  idleUnloadMs: number;
  /** Requests allowed to wait per model while one generates. */
  queueLimit: number;
  gpu: boolean;
}

function defaultThreads(): number {
  const cores = availableParallelism();
  // On two cores llama.cpp threads fight the event loop: one thread is much faster than two.
  return cores <= 2 ? 1 : cores - 1;
}

function integerOption(options: ProviderOptions, field: string, fallback: number, minimum: number): number {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new Error(
      `llamacpp provider option "${field}" must be an integer of at least ${minimum}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Reads and validates the provider's free-form options; throws an Error naming the bad field. */
export function parseLlamaCppOptions(options: ProviderOptions, dataDir: string): LlamaCppOptions {
  const modelsDir = options.models_dir;
  if (modelsDir !== undefined && (typeof modelsDir !== 'string' || modelsDir.length === 0)) {
    throw new Error(
      `llamacpp provider option "models_dir" must be a non-empty string, got ${JSON.stringify(modelsDir)}`,
    );
  }
  const gpu = options.gpu;
  if (gpu !== undefined && typeof gpu !== 'boolean') {
    throw new Error(`llamacpp provider option "gpu" must be true or false, got ${JSON.stringify(gpu)}`);
  }
  return {
    modelsDir:
      modelsDir === undefined
        ? join(dataDir, 'models')
        : isAbsolute(modelsDir)
          ? modelsDir
          : resolve(dataDir, modelsDir),
    threads: integerOption(options, 'threads', defaultThreads(), 1),
    contextSize: integerOption(options, 'context_size', 2048, 16),
    idleUnloadMs: integerOption(options, 'idle_unload_ms', 600_000, 0),
    queueLimit: integerOption(options, 'queue_limit', 8, 0),
    gpu: gpu ?? false,
  };
}
