import { describe, expect, it } from 'vitest';
import { IdGenerator } from '../../../src/core/ids/id-generator.js';
import { GatewayTracing } from '../../../src/core/tracing/gateway-tracing.js';

function gatewayTracing(): GatewayTracing {
  return new GatewayTracing({
    settings: undefined,
    version: 'test',
    instanceId: 'test',
    log: { warn: () => undefined },
    captureContent: () => false,
    ids: new IdGenerator(),
  });
}

/** A model call as the route runner makes it: its span, then its upstream request's span a turn later. */
async function modelCall(tracing: GatewayTracing, model: string): Promise<void> {
  const call = tracing.startCall(`chat ${model}`, {})!;
  const entered = tracing.enterCall(call);
  const upstream = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    tracing.start('POST', { 'switchyard.model': model }, 'client')!.end();
  };
  try {
    await (entered ? upstream() : tracing.within(call, upstream));
  } finally {
    if (entered) tracing.leaveCall(call);
    call.end();
  }
}

describe("the parent of a model call's spans", () => {
  it('is the call, for calls one after another and side by side in one request; the rest stay under the server span', async () => {
    const tracing = gatewayTracing();
    const server = tracing.startRequest('POST /v1/chat/completions', {}, undefined, undefined);
    await tracing.within(server, async () => {
      await modelCall(tracing, 'first');
      await Promise.all([modelCall(tracing, 'left'), modelCall(tracing, 'right')]);
      tracing.start('after the calls')!.end();
    });
    server.end();
    const spans = server.trace.spans;
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    for (const model of ['first', 'left', 'right']) {
      const call = byName(`chat ${model}`);
      expect(call.parent_span_id).toBe(server.span_id);
      const post = spans.find((span) => span.name === 'POST' && span.attributes['switchyard.model'] === model)!;
      expect(post.parent_span_id).toBe(call.span_id);
    }
    expect(byName('after the calls').parent_span_id).toBe(server.span_id);
    expect(new Set(spans.map((span) => span.span_id)).size).toBe(spans.length);
  });
});
