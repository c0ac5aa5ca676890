import type { RequestLogEntry } from '../../src/core/request-log/request-log.js';

/** A request log entry of a plain chat request, with `fields` over the defaults. */
export function logEntry(fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: 'req_1',
    time: 1,
    method: 'POST',
    path: '/v1/chat/completions',
    status: 200,
    latency_ms: 4.2,
    key_prefix: 'sk-sy-ab',
    model: 'm',
    prompt_tokens: 1,
    completion_tokens: 1,
    cost: 0,
    client: null,
    ...fields,
  };
}
