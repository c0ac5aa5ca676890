import type { RecordedSpan } from '../../../../gateway/src/wire/request-log-entry-schema';

/** Spans shaped like those the gateway records (its trace work), for the waterfall's tests. */

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const T0 = 1_764_000_000_000;

let next = 0;
const spanId = () => (++next).toString(16).padStart(16, '0');

function span(
  name: string,
  startMs: number,
  durationMs: number,
  more: Partial<RecordedSpan> & { parent?: RecordedSpan } = {},
): RecordedSpan {
  const { parent, ...rest } = more;
  return {
    trace_id: TRACE_ID,
    span_id: spanId(),
    ...(parent ? { parent_span_id: parent.span_id } : {}),
    name,
    kind: 'internal',
    start_time_ms: T0 + startMs,
    duration_ms: durationMs,
    status: 'unset',
    attributes: {},
    ...rest,
  };
}

/**
 * A streamed chat that failed on its first attempt (503), was retried after a backoff, timed out,
 * then fell back to another provider that streamed the answer: 820 ms in all.
 */
export function streamedChatWithRetry(): RecordedSpan[] {
  const server = span('POST /v1/chat/completions', 0, 820, {
    kind: 'server',
    attributes: {
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'switchyard.request_id': 'req_1',
    },
  });
  const routing = span('chat svc-large-3', 1.2, 798.8, {
    parent: server,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'svc-large-3' },
    events: [{ name: 'backoff', time_ms: T0 + 120, attributes: { 'switchyard.backoff_ms': 250 } }],
  });
  const attempt1 = span('attempt upstream', 1.5, 118.5, {
    parent: routing,
    status: 'error',
    status_message: 'The upstream provider answered 503: overloaded',
    attributes: { 'switchyard.attempt': 1, 'gen_ai.provider.name': 'openai' },
  });
  const attempt2 = span('attempt upstream', 370, 130, {
    parent: routing,
    status: 'error',
    status_message: 'No first byte within 1500 ms',
    attributes: { 'switchyard.attempt': 2 },
  });
  const fallback = span('attempt backup', 500, 300, {
    parent: routing,
    status: 'ok',
    attributes: { 'switchyard.attempt': 3, 'switchyard.fallback': true },
  });
  const upstreamCall = span('chat backup-model', 501, 298, {
    parent: fallback,
    kind: 'client',
    attributes: { 'server.address': '127.0.0.1', 'server.port': 9000, 'gen_ai.response.finish_reasons': ['stop'] },
    events: [
      { name: 'first token', time_ms: T0 + 620 },
      { name: 'last token', time_ms: T0 + 795 },
    ],
  });
  return [
    // Listed as an exporter ends them: children first.
    span('usage write', 805, 7, { parent: server }),
    upstreamCall,
    fallback,
    attempt2,
    attempt1,
    routing,
    span('spend reservation', 0.6, 0.4, { parent: server }),
    span('authentication', 0.2, 0.3, { parent: server }),
    server,
  ];
}

/** A chat on a local model: its queue wait, the model's load, prompt processing and generation. */
export function localModelChat(): RecordedSpan[] {
  const server = span('POST /v1/chat/completions', 0, 2400, { kind: 'server' });
  const routing = span('chat local-llama', 1, 2395, { parent: server });
  return [
    server,
    routing,
    span('queue wait', 2, 100, { parent: routing }),
    span('model load', 102, 1800, { parent: routing }),
    span('prompt processing', 1902, 200, { parent: routing }),
    span('generation', 2102, 290, { parent: routing, events: [{ name: 'first token', time_ms: T0 + 2110 }] }),
  ];
}
