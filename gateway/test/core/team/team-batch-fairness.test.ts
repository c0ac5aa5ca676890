import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { chatLine, createChatBatch } from '../../support/chat-batch.js';
import { createMemberKey } from '../../support/latency-probe.js';
import { json, type TestGateway } from '../../support/start-gateway.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { createTestDatabase } from '../../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway, useTempDir } from '../../support/use-resources.js';

const as = (gateway: TestGateway, key: string) => ({
  request: (path: string, init: RequestInit & { json?: unknown } = {}) => gateway.request(path, { ...init, key }),
});
const lines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => chatLine(`${prefix}-${index}`));

describe('batch lines on pg-boss (team mode) take keys in turns', () => {
  it("two 300-line batches of one key keep another key's one-line batch waiting for about one line, not for their length", async () => {
    const database = await createTestDatabase();
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(async () => {
      await dropRedisPrefix(TEST_REDIS_URL, prefix);
      await database.drop();
    });
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    // 200 ms an answer: the big batches' 600 lines take about 15 s at the default 8 at once, 4 of one batch.
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 100 } });
    const gateway = await useGateway({
      env: teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir: useTempDir() }, 'gw-fair'),
      config: upstreamConfig(upstream),
    });
    const busy = as(gateway, await createMemberKey(gateway, 'busy'));
    const other = as(gateway, await createMemberKey(gateway, 'other'));

    const big = [await createChatBatch(busy, lines('first', 300)), await createChatBatch(busy, lines('second', 300))];
    await expect
      .poll(async () => (await json(await busy.request(`/v1/batches/${big[1].id}`))).request_counts.completed, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    const small = await createChatBatch(other, lines('small', 1));

    const started = performance.now();
    await expect
      .poll(async () => (await json(await other.request(`/v1/batches/${small.id}`))).status, {
        timeout: 60_000,
        interval: 100,
      })
      .toBe('completed');
    expect(performance.now() - started).toBeLessThan(5000);
    for (const batch of big)
      expect((await json(await busy.request(`/v1/batches/${batch.id}`))).status).toBe('in_progress');
  });
});
