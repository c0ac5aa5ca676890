import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FakeUpstream } from '../support/fake-upstream.js';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway.js';
import { json, type Json } from '../support/start-gateway.js';
import { chatLine, createChatBatch } from '../support/chat-batch.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from '../support/team-of-gateways.js';
import { createTestDatabase } from '../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { useFakeUpstream, useTempDir } from '../support/use-resources.js';

let database: { url: string; drop(): Promise<void> };
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const LINES = 40;
const CONCURRENCY = 4;

const chats = (upstream: FakeUpstream) =>
  upstream.requests.filter((request) => request.path === '/v1/chat/completions');

describe('SIGTERM of an instance mid-batch (the built CLI on PostgreSQL and Redis)', () => {
  it('the drained instance finishes or hands back its lines in flight, exits 0, and the other completes the batch: every custom_id once', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const filesDir = useTempDir('switchyard-shared-files-');
    const spawn = async (id: string, upstream: FakeUpstream): Promise<SpawnedGateway> => {
      const gateway = await spawnGateway(
        useTempDir('switchyard-batch-drain-'),
        // No drain delay (no balancer here) and a short grace, so some lines may be handed back rather than finished.
        {
          ...upstreamConfig(upstream),
          server: {
            batch_concurrency: CONCURRENCY,
            batch_concurrency_per_batch: CONCURRENCY,
            batch_recovery_seconds: 1,
            drain_delay_ms: 0,
            shutdown_grace_ms: 150,
          },
        },
        teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir }, id),
      );
      onTestFinished(() => {
        if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      });
      return gateway;
    };
    const upstreamA = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const upstreamB = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    // About 200 ms a line: long enough to have lines in flight at the signal, short enough to keep the test quick.
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 100 }, path: '/v1/chat/completions' });
    const a = await spawn('gw-a', upstreamA);
    const b = await spawn('gw-b', upstreamB);

    const expected = Array.from({ length: LINES }, (_, index) => `line-${index}`);
    const batch = await createChatBatch(
      a,
      expected.map((id) => chatLine(id, id)),
    );
    const read = async (): Promise<Json> => json(await b.request(`/v1/batches/${batch.id}`));

    // A has lines in flight: drain it.
    await expect
      .poll(() => chats(upstreamA).filter((request) => !request.aborted).length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    const started = Date.now();
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    await Promise.all(chats(upstreamA).map((request) => request.settled));
    const sentByA = chats(upstreamA).length;
    const cutOnA = chats(upstreamA).filter((request) => request.aborted).length;

    await expect.poll(async () => (await read()).status, { timeout: 60_000, interval: 200 }).toBe('completed');
    const done = await read();
    console.log(
      `SIGTERM mid-batch: A sent ${sentByA} lines (${cutOnA} cut at the end of the grace), B ${chats(upstreamB).length}; B completed ${Date.now() - started} ms after the signal`,
    );
    expect(done.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    const output = (await (await b.request(`/v1/files/${done.output_file_id}/content`)).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    expect(output.map((line) => line.custom_id)).toEqual(expected);
    // Only lines handed back by the drain ran twice: A's concurrency at most.
    expect(sentByA + chats(upstreamB).length).toBeLessThanOrEqual(LINES + CONCURRENCY);
  });
});
