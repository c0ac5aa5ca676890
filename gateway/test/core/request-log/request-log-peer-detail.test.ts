import { describe, expect, it } from 'vitest';
import { RequestLog, type RequestLogEntry } from '../../../src/core/request-log/request-log.js';

describe("another instance's request, opened from the live feed before that instance wrote it", () => {
  it('is answered with the stored entry once it is written, not with the summary (which reads as bodies not kept)', async () => {
    const summary = {
      id: 'on-b',
      time: Date.now(),
      method: 'POST',
      path: '/v1/chat/completions',
      status: 200,
      latency_ms: 5,
      key_prefix: 'sk-sy-abcd…',
      model: 'm',
      prompt_tokens: 1,
      completion_tokens: 1,
      cost: 0,
      client: null,
      instance_id: 'instance-b',
    } satisfies RequestLogEntry;
    const stored = { ...summary, request_body: '{"messages":[]}', response_body: '{}' };
    let writtenAt = Infinity;
    const log = new RequestLog(10, {
      retentionDays: 1,
      store: {
        insertMany: async () => {},
        recent: async () => [],
        get: async () => (Date.now() >= writtenAt ? stored : undefined),
        prune: async () => {},
      },
    });
    log.addFromPeer(summary);
    writtenAt = Date.now() + 300;
    expect((await log.detail('on-b'))?.request_body).toBe('{"messages":[]}');
  });
});
