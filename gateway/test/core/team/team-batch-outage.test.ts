import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { startTcpRelay, type TcpRelay } from '../../support/tcp-relay.js';
import { chatLine, createChatBatch } from '../../support/chat-batch.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { createTestDatabase } from '../../support/test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';

let database: { url: string; drop(): Promise<void> };
/** A reaches Redis through a relay the test cuts; B directly. Each on its own fake upstream. */
let a: TestGateway;
let b: TestGateway;
let upstreamA: FakeUpstream;
let upstreamB: FakeUpstream;
let relay: TcpRelay;
const prefix = `switchyard-test-${randomUUID()}:`;
const filesDir = mkdtempSync(join(tmpdir(), 'switchyard-shared-files-'));

beforeAll(async () => {
  database = await createTestDatabase();
  [upstreamA, upstreamB] = await Promise.all([
    startFakeUpstream({ apiKey: UPSTREAM_KEY }),
    startFakeUpstream({ apiKey: UPSTREAM_KEY }),
  ]);
  const redisTarget = new URL(TEST_REDIS_URL);
  relay = await startTcpRelay(redisTarget.hostname, Number(redisTarget.port || 6379));
  // The lines' slow answers (3 s between parts) must not trip the provider's own timeouts.
  const patient = (upstream: FakeUpstream) => {
    const config = upstreamConfig(upstream);
    return {
      ...config,
      providers: config.providers.map((provider) => ({
        ...provider,
        timeouts: { connect: 2000, first_byte: 10_000, idle: 10_000 },
      })),
    };
  };
  const start = (id: string, upstream: FakeUpstream, redisUrl: string) =>
    startGateway({
      env: teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir, redisUrl }, id),
      config: {
        ...patient(upstream),
        server: { batch_concurrency: 4, batch_concurrency_per_batch: 4, batch_recovery_seconds: 1 },
      },
    });
  a = await start('gw-a', upstreamA, `redis://127.0.0.1:${relay.port}`);
  b = await start('gw-b', upstreamB, TEST_REDIS_URL);
});
afterAll(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  await Promise.allSettled([upstreamA?.close(), upstreamB?.close(), relay?.close()]);
  await dropRedisPrefix(TEST_REDIS_URL, prefix);
  await database.drop();
  rmSync(filesDir, { recursive: true, force: true });
});

describe('batches in team mode while Redis is away from one instance', () => {
  it('a cancel through B reaches the lines in flight on A (cut from Redis) through the database within seconds', async () => {
    // Each line takes about 6 s upstream: longer than the 3 s status check, so only an abort ends it early.
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 3000 }, path: '/v1/chat/completions' });
    const batch = await createChatBatch(
      b,
      Array.from({ length: 16 }, (_, i) => chatLine(`line-${i}`)),
    );
    const chats = () => upstreamA.requests.filter((request) => request.path === '/v1/chat/completions');
    await expect.poll(() => chats().length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
    await relay.cut();
    const inFlightOnA = chats();
    const cancelled = await b.request(`/v1/batches/${batch.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const started = Date.now();
    await Promise.all(inFlightOnA.map((request) => request.settled));
    const tookMs = Date.now() - started;
    console.log(`A's ${inFlightOnA.length} lines in flight aborted ${tookMs} ms after the cancel, Redis cut`);
    // Within the 3 s status check plus slack, well before the 6 s answer.
    expect(tookMs).toBeLessThan(5000);
    expect(inFlightOnA.every((request) => request.aborted)).toBe(true);
    await relay.restore();
    await expect
      .poll(async () => (await json(await b.request(`/v1/batches/${batch.id}`))).status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe('cancelled');
  });
});
