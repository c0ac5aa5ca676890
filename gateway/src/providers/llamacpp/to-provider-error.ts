import { ProviderError } from '../_shared/provider-error.js';
import { abortedError } from './request-queue.js';

/** Normalises what the engine throws: aborts become `aborted`, anything unknown an `upstream` failure. */
export function toProviderError(error: unknown, signal: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return abortedError();
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('upstream', `The local llama.cpp engine failed: ${message}`, { cause: error });
}
