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

const LINES = 1000;
/** Each instance's lines in flight (all batches and one batch alike). */
const CONCURRENCY = 8;

const chats = (upstream: FakeUpstream) =>
  upstream.requests.filter((request) => request.path === '/v1/chat/completions');

describe('kill -9 of an instance mid-batch (the built CLI on PostgreSQL and Redis)', () => {
  it('the other instance finishes the batch: every custom_id once, and only the lines in flight on the killed one run twice', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const filesDir = useTempDir('switchyard-shared-files-');
    const spawn = async (id: string, upstream: FakeUpstream): Promise<SpawnedGateway> => {
      const gateway = await spawnGateway(
        useTempDir('switchyard-batch-kill-'),
        {
          ...upstreamConfig(upstream),
          server: {
            batch_concurrency: CONCURRENCY,
            batch_concurrency_per_batch: CONCURRENCY,
            batch_recovery_seconds: 1,
          },
        },
        teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir }, id),
      );
      onTestFinished(() => {
        if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      });
      return gateway;
    };
    // Each instance on its own (slow) upstream, so each one's calls are counted.
    const upstreamA = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const upstreamB = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 25 }, path: '/v1/chat/completions' });
    const a = await spawn('gw-a', upstreamA);
    const b = await spawn('gw-b', upstreamB);

    const expected = Array.from({ length: LINES }, (_, index) => `line-${index}`);
    const batch = await createChatBatch(
      a,
      expected.map((id) => chatLine(id, id)),
    );
    const read = async (): Promise<Json> => json(await b.request(`/v1/batches/${batch.id}`));

    // Mid-batch, with both instances busy: kill A.
    await expect
      .poll(async () => (await read()).request_counts.completed, { timeout: 60_000, interval: 100 })
      .toBeGreaterThanOrEqual(LINES / 4);
    expect(chats(upstreamA).length).toBeGreaterThan(0);
    const started = Date.now();
    a.child.kill('SIGKILL');
    expect(await a.exited).toBeNull();
    // What A had sent and not yet seen answered is what it had in flight (at most its concurrency).
    await Promise.all(chats(upstreamA).map((request) => request.settled));
    const sentByA = chats(upstreamA).length;
    const cutOnA = chats(upstreamA).filter((request) => request.aborted).length;
    expect(cutOnA).toBeLessThanOrEqual(CONCURRENCY);

    await expect.poll(async () => (await read()).status, { timeout: 90_000, interval: 250 }).toBe('completed');
    const done = await read();
    console.log(
      `kill -9 mid-batch: A sent ${sentByA} lines (${cutOnA} cut by the kill), B ${chats(upstreamB).length}; ` +
        `upstream calls ${sentByA + chats(upstreamB).length} for ${LINES} lines; B finished ${Date.now() - started} ms after the kill`,
    );
    expect(done.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    const output = (await (await b.request(`/v1/files/${done.output_file_id}/content`)).text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);
    expect(output.map((line) => line.custom_id)).toEqual(expected);
    // Lines ran again only where A had them in flight: its concurrency at most.
    expect(sentByA + chats(upstreamB).length).toBeLessThanOrEqual(LINES + CONCURRENCY);
    expect(chats(upstreamA).length).toBe(sentByA);
  });
});
