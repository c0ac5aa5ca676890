import type { TokenUsage } from '../../contracts/sampling.js';
import { isRecord, optionalNumber } from '../http/wire-guards.js';

/** The upstream's `usage`, when it sent a usable one. */
export function readTokenUsage(value: unknown): TokenUsage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = optionalNumber(value.prompt_tokens);
  const total = optionalNumber(value.total_tokens);
  const completion =
    optionalNumber(value.completion_tokens) ??
    (prompt !== undefined && total !== undefined ? total - prompt : undefined);
  if (prompt === undefined || completion === undefined) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion };
}
