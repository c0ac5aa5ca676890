import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { postgresConnection } from '../../src/store/database.js';
import { readSse } from '../support/sse.js';
import { spawnGateway } from '../support/spawn-gateway.js';
import { json } from '../support/start-gateway.js';
import { dropRedisPrefix, TEST_REDIS_URL } from '../support/team-of-gateways.js';
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

async function rows<T>(sql: string, values: unknown[]): Promise<T[]> {
  const client = new pg.Client(postgresConnection(database.url));
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('graceful drain in team mode (the built CLI on PostgreSQL and Redis)', () => {
  it('SIGTERM: readiness turns draining while requests are still served, the streamed and plain requests in flight finish, usage and the request log are in PostgreSQL, exit 0', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const gateway = await spawnGateway(
      useTempDir('switchyard-drain-'),
      // The checks made while draining (readiness, a request still served) have 2 s; the streamed answer outlasts that anyway.
      { ...upstreamConfig(upstream), server: { drain_delay_ms: 2000, shutdown_grace_ms: 20_000 } },
      {
        GATEWAY_DATABASE_URL: database.url,
        GATEWAY_REDIS_URL: TEST_REDIS_URL,
        GATEWAY_REDIS_PREFIX: prefix,
        GATEWAY_INSTANCE_ID: 'gw-drain',
      },
    );
    onTestFinished(() => {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    });
    expect((await gateway.request('/health/readiness')).status).toBe(200);

    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    const messages = [{ role: 'user', content: 'tell me a long story' }];
    const streamed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'x-request-id': 'drain-stream' },
      json: { model: 'svc-large-3', stream: true, messages },
    });
    expect(streamed.status).toBe(200);
    const plain = gateway.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'x-request-id': 'drain-plain' },
      json: { model: 'svc-large-3', messages },
    });
    const events = readSse(streamed);

    gateway.child.kill('SIGTERM');
    // Not ready at once, so the balancer stops sending here, while what still arrives is served.
    let readiness = await gateway.request('/health/readiness');
    while (readiness.status === 200) readiness = await gateway.request('/health/readiness');
    expect(readiness.status).toBe(503);
    expect(readiness.headers.get('retry-after')).toBe('5');
    expect(await json(readiness)).toMatchObject({ status: 'draining' });
    expect((await gateway.request('/v1/models')).status).toBe(200);

    const chunks = await events;
    expect(chunks.at(-1)).toBe('[DONE]');
    expect(chunks.length).toBeGreaterThan(2);
    const plainAnswer = await plain;
    expect(plainAnswer.status).toBe(200);
    expect((await json(plainAnswer)).object).toBe('chat.completion');
    expect(await gateway.exited).toBe(0);
    expect(gateway.output().stdout).toMatch(/SIGTERM received: not ready, still serving for 2000 ms/);

    const usage = await rows<{ request_id: string; status: number; completion_tokens: number }>(
      'SELECT request_id, status, completion_tokens FROM usage WHERE request_id = ANY($1) ORDER BY request_id',
      [['drain-plain', 'drain-stream']],
    );
    expect(usage.map((row) => [row.request_id, Number(row.status)])).toEqual([
      ['drain-plain', 200],
      ['drain-stream', 200],
    ]);
    expect(usage.every((row) => Number(row.completion_tokens) > 0)).toBe(true);
    const logged = await rows<{ id: string }>('SELECT id FROM request_log WHERE id = ANY($1)', [
      ['drain-plain', 'drain-stream'],
    ]);
    expect(logged.map((row) => row.id).sort()).toEqual(['drain-plain', 'drain-stream']);
  });

  it('a second SIGTERM during the drain delay closes at once and still exits 0', async () => {
    const prefix = `switchyard-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    // A drain delay far beyond the test's timeout: only the second signal can end the process in time.
    const gateway = await spawnGateway(
      useTempDir('switchyard-drain-'),
      { ...upstreamConfig(upstream), server: { drain_delay_ms: 600_000 } },
      {
        GATEWAY_DATABASE_URL: database.url,
        GATEWAY_REDIS_URL: TEST_REDIS_URL,
        GATEWAY_REDIS_PREFIX: prefix,
        GATEWAY_INSTANCE_ID: 'gw-twice',
      },
    );
    onTestFinished(() => {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    });
    gateway.child.kill('SIGTERM');
    let readiness = await gateway.request('/health/readiness');
    while (readiness.status === 200) readiness = await gateway.request('/health/readiness');
    expect(await json(readiness)).toMatchObject({ status: 'draining' });
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expect(gateway.output().stdout).toMatch(/SIGTERM received again: closing now/);
  });
});
