import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postgresConnection } from '../../../src/store/database.js';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { startPostgresTeamPair, type PostgresTeamPair } from '../../support/postgres-team-pair.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { chatLine, createChatBatch } from '../../support/chat-batch.js';

/** Two gateways on one PostgreSQL and Redis, each on its own fake upstream, so each one's share shows; shared by the tests. */
let pair: PostgresTeamPair;
let a: TestGateway;
let b: TestGateway;
let upstreamA: FakeUpstream;
let upstreamB: FakeUpstream;

beforeAll(async () => {
  pair = await startPostgresTeamPair({
    batch_concurrency: 4,
    batch_concurrency_per_batch: 2,
    batch_recovery_seconds: 1,
  });
  ({ a, b, upstreamA, upstreamB } = pair);
});
afterAll(() => pair?.close());
beforeEach(() => {
  for (const upstream of [upstreamA, upstreamB]) {
    upstream.requests.length = 0;
    upstream.setBehaviour(null);
  }
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(postgresConnection(pair.databaseUrl));
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const ids = (count: number) => Array.from({ length: count }, (_, index) => `line-${index}`);

const batchOn = async (on: TestGateway, id: string): Promise<Json> => json(await on.request(`/v1/batches/${id}`));

async function fileLines(on: TestGateway, fileId: string | null): Promise<Json[]> {
  if (!fileId) return [];
  const text = await (await on.request(`/v1/files/${fileId}/content`)).text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
}

describe('batches in team mode: lines are pg-boss jobs on the shared PostgreSQL', () => {
  it('two instances take the lines of one batch; the output has every custom_id once, in input order', async () => {
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 40 }, path: '/v1/chat/completions' });
    const expected = ids(40);
    const started = Date.now();
    const batch = await createChatBatch(
      a,
      expected.map((id) => chatLine(id)),
    );
    await expect
      .poll(async () => (await batchOn(b, batch.id)).status, { timeout: 30_000, interval: 200 })
      .toBe('completed');
    console.log(`40 lines of 80 ms on two instances (2 per batch each): ${Date.now() - started} ms`);
    const done = await batchOn(b, batch.id);
    expect(done.request_counts).toEqual({ total: 40, completed: 40, failed: 0 });
    const output = await fileLines(b, done.output_file_id);
    expect(output.map((line) => line.custom_id)).toEqual(expected);
    expect(output.every((line) => line.response.status_code === 200 && line.error === null)).toBe(true);
    // Both instances ran lines, and no line was sent twice.
    const chats = (upstream: FakeUpstream) =>
      upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;
    expect(chats(upstreamA)).toBeGreaterThan(0);
    expect(chats(upstreamB)).toBeGreaterThan(0);
    expect(chats(upstreamA) + chats(upstreamB)).toBe(40);
    // The line results were in the database while the batch ran, and are gone with it.
    expect(await query('SELECT 1 FROM batch_lines WHERE batch_id = $1', [batch.id])).toEqual([]);
  });

  it('a cancel through B stops the lines in flight on A (the upstream sees the abort); what finished is kept; cancelled lines are not billed', async () => {
    const since = Date.now();
    // Each line takes about 2 s upstream.
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 1000 }, path: '/v1/chat/completions' });
    const batch = await createChatBatch(
      a,
      ids(30).map((id) => chatLine(id)),
    );
    await expect
      .poll(() => upstreamA.requests.filter((request) => request.path === '/v1/chat/completions').length, {
        timeout: 10_000,
        interval: 50,
      })
      .toBeGreaterThan(0);
    const inFlightOnA = upstreamA.requests.filter((request) => request.path === '/v1/chat/completions');
    const cancelled = await b.request(`/v1/batches/${batch.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).status).toMatch(/^cancell(ing|ed)$/);
    const started = Date.now();
    await Promise.all(inFlightOnA.map((request) => request.settled));
    // Aborted well before the 2 s answer would have come.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(inFlightOnA.some((request) => request.aborted)).toBe(true);
    await expect
      .poll(async () => (await batchOn(a, batch.id)).status, { timeout: 10_000, interval: 200 })
      .toBe('cancelled');
    const done = await batchOn(a, batch.id);
    expect(done.cancelled_at).toBeTypeOf('number');
    // No line starts after the cancel.
    const sent = upstreamA.requests.length + upstreamB.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(upstreamA.requests.length + upstreamB.requests.length).toBe(sent);
    expect(done.request_counts.completed).toBe((await fileLines(a, done.output_file_id)).length);
    // Only the lines that finished are billed: the aborted ones are not.
    await expect
      .poll(
        async () =>
          Number(
            (await query<{ n: string }>('SELECT count(*) AS n FROM usage WHERE cost > 0 AND time >= $1', [since]))[0]!
              .n,
          ),
        { timeout: 5000 },
      )
      .toBe(done.request_counts.completed);
  });

  it("SPEC's cancel (POST /v1/batch/{id}/cancel) through B answers cancelled with cancelled_at, as on one instance", async () => {
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    const batch = await createChatBatch(
      a,
      ids(12).map((id) => chatLine(id)),
    );
    await expect
      .poll(async () => (await batchOn(b, batch.id)).status, { timeout: 10_000, interval: 50 })
      .toBe('in_progress');
    const cancelled = await b.request(`/v1/batch/${batch.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const body = await json(cancelled);
    expect(body).toMatchObject({
      id: batch.id,
      object: 'batch',
      status: 'cancelled',
      cancelled_at: expect.any(Number),
    });
    expect(await batchOn(a, batch.id)).toMatchObject({ status: 'cancelled', cancelled_at: body.cancelled_at });
  });

  it('completion_window: past it the batch is expired, the remaining lines never run and are in the error file as batch_expired', async () => {
    for (const upstream of [upstreamA, upstreamB])
      upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 150 }, path: '/v1/chat/completions' });
    const expected = ids(40);
    const batch = await createChatBatch(
      a,
      expected.map((id) => chatLine(id)),
    );
    await expect
      .poll(async () => (await batchOn(a, batch.id)).request_counts.completed, { timeout: 20_000, interval: 100 })
      .toBeGreaterThanOrEqual(2);
    // The batch was created 25 hours ago as far as its 24h window is concerned.
    await query('UPDATE batches SET created_at = created_at - 90000 WHERE id = $1', [batch.id]);
    await expect
      .poll(async () => (await batchOn(a, batch.id)).status, { timeout: 10_000, interval: 200 })
      .toBe('expired');
    // The files follow the status within a moment.
    await expect
      .poll(async () => (await batchOn(a, batch.id)).error_file_id, { timeout: 10_000, interval: 200 })
      .toBeTruthy();
    const done = await batchOn(a, batch.id);
    const output = await fileLines(a, done.output_file_id);
    const errors = await fileLines(a, done.error_file_id);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((line) => line.error.code === 'batch_expired')).toBe(true);
    // Every line once: run (output) or expired (errors).
    expect([...output, ...errors].map((line) => line.custom_id).sort()).toEqual([...expected].sort());
    const sent = upstreamA.requests.length + upstreamB.requests.length;
    expect(sent).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(upstreamA.requests.length + upstreamB.requests.length).toBe(sent);
  });
});
