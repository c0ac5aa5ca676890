import type { FinishReason, TokenUsage } from '../../contracts/sampling.js';
import { isRecord, optionalNumber } from '../http/wire-guards.js';

// The two values of an OpenAI-style answer (whole or streamed) that are read into the gateway's own terms.

/** Upstream finish reasons in our closed set; `function_call` is the legacy spelling of tool calls. */
export function toFinishReason(value: unknown): FinishReason {
  switch (value) {
    case 'length':
    case 'model_length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}

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
