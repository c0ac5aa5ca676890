/**
 * The CPU a plain chat request's trace costs the gateway with no collector set, in one process and
 * garbage collection included: the spans the hooks, the route runner and the upstream client record
 * (server span, GenAI call, upstream POST, usage write; both traceparent headers; the attributes),
 * kept with a request-log-sized ring of entries, against the same entries without a trace. Blocks
 * of each alternate, so a busy machine slows both alike; an A/B of whole gateways (ab.ts) on a shared
 * machine moves by more than this whole cost.
 *
 *   npx tsx bench/gateway/trace-cost.ts [--requests 20000] [--blocks 15]
 */
import { IdGenerator } from '../../gateway/src/core/ids/id-generator.js';
import { GatewayTracing } from '../../gateway/src/core/tracing/gateway-tracing.js';
import type { RecordedSpan } from '../../gateway/src/wire/request-log-entry-schema.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const requests = Number(args.get('--requests') ?? 20_000);
const blocks = Number(args.get('--blocks') ?? 15);
/** The request log keeps 500 entries (request_log_size) and trims at twice that. */
const LOG_SIZE = 500;

const ids = new IdGenerator();
const tracing = new GatewayTracing({
  settings: undefined,
  version: 'bench',
  instanceId: 'bench',
  log: { warn: () => undefined },
  ids,
});
const log: object[] = [];

function traceOfRequest(requestId: string): { trace_id: string; spans: RecordedSpan[]; headers: number } {
  const server = tracing.startRequest(
    'POST /v1/chat/completions',
    { 'http.request.method': 'POST', 'http.route': '/v1/chat/completions', 'switchyard.request.id': requestId },
    undefined,
    undefined,
  );
  let headers = server.traceparent.length;
  tracing.within(server, () => {
    const call = tracing.start(
      'chat bench-model',
      { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'bench-model' },
      'client',
    )!;
    call.trace.operation ??= call;
    call.set('gen_ai.provider.name', 'openai');
    call.set('switchyard.provider.id', 'up');
    tracing.within(call, () => {
      const post = tracing.start(
        'POST',
        { 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'server.port': 9000, 'url.path': '/v1/chat' },
        'client',
      )!;
      headers += post.traceparent.length;
      post.set('http.response.status_code', 200);
      post.end();
    });
    call.set('gen_ai.response.model', 'bench-model');
  });
  server.trace.start('usage write', server).end();
  const operation = server.trace.operation!;
  operation.set('gen_ai.usage.input_tokens', 12);
  operation.set('gen_ai.usage.output_tokens', 9);
  operation.end();
  server.set('http.response.status_code', 200);
  server.set('switchyard.key.id', 'key_1');
  server.set('switchyard.cost', 0.000021);
  server.end();
  return { trace_id: server.trace.traceId, spans: server.trace.spans, headers };
}

function request(traced: boolean): void {
  const id = ids.orderedId('req_');
  const entry = {
    id,
    time: Date.now(),
    method: 'POST',
    path: '/v1/chat/completions',
    status: 200,
    latency_ms: 1.23,
    key_prefix: 'sk-sy-1234',
    key_id: 'key_1',
    model: 'bench-model',
    prompt_tokens: 12,
    completion_tokens: 9,
    cost: 0.000021,
    client: null,
    request_headers: { host: '127.0.0.1', 'content-type': 'application/json' },
    ...(traced ? traceOfRequest(id) : {}),
  };
  log.push(entry);
  if (log.length >= 2 * LOG_SIZE) log.splice(0, log.length - LOG_SIZE);
}

function block(traced: boolean): number {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) request(traced);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
// Warm-up: both paths compiled before anything is counted.
for (let i = 0; i < 10; i++) block(i % 2 === 0);
const traced: number[] = [];
const plain: number[] = [];
for (let i = 0; i < blocks; i++) {
  traced.push(block(true));
  plain.push(block(false));
}
console.log(
  `${blocks} blocks of ${requests} requests: ${median(traced).toFixed(2)} µs CPU per request with its trace, ` +
    `${median(plain).toFixed(2)} µs without; the trace's own: ${median(traced.map((t, i) => t - plain[i])).toFixed(2)} µs per request`,
);
