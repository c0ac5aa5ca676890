import type { FinishReason } from '../../contracts/sampling.js';

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
