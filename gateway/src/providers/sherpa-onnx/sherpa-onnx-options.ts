import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { ProviderContext } from '../contracts/provider-instance.js';

export interface SherpaOnnxOptions {
  modelDir: string;
  /** The model folder used when a request names none of them. */
  defaultModel?: string;
  maxDurationSeconds: number;
  numThreads: number;
  /** How long the out-of-process load check may take before the model counts as broken. */
  loadTimeoutMs: number;
}

function positiveNumber(context: ProviderContext, key: string, fallback: number): number {
  const value = context.options[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`provider ${context.id}: option ${key} must be a positive number, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Reads the provider's config entry: `model_dir`, `default_model`, `max_duration_seconds`, `threads`, `load_timeout_seconds`. */
export function readSherpaOnnxOptions(context: ProviderContext): SherpaOnnxOptions {
  const modelDir = context.options.model_dir;
  if (modelDir !== undefined && (typeof modelDir !== 'string' || modelDir === '')) {
    throw new Error(`provider ${context.id}: option model_dir must be a folder path`);
  }
  const defaultModel = context.options.default_model;
  if (defaultModel !== undefined && typeof defaultModel !== 'string') {
    throw new Error(`provider ${context.id}: option default_model must be the name of a model folder`);
  }
  return {
    defaultModel,
    modelDir:
      modelDir === undefined ? path.join(context.dataDir, 'models', 'speech') : path.resolve(context.dataDir, modelDir),
    maxDurationSeconds: positiveNumber(context, 'max_duration_seconds', 600),
    numThreads: Math.floor(positiveNumber(context, 'threads', Math.min(4, availableParallelism()))),
    loadTimeoutMs: positiveNumber(context, 'load_timeout_seconds', 120) * 1000,
  };
}
