import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Libsql from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway.js';
import { ADMIN_KEY, json, type Json } from '../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../support/upstream-config.js';
import { DEFAULT_SERVER } from '../../src/config/defaults.js';

let upstream: FakeUpstream;
let dataDir: string;
const running: SpawnedGateway[] = [];

beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-crash-'));
});
afterEach(async () => {
  for (const gateway of running.splice(0)) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) {
      gateway.child.kill('SIGKILL');
      await gateway.exited;
    }
  }
  await upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(server: Record<string, unknown> = {}): Promise<SpawnedGateway> {
  const gateway = await spawnGateway(dataDir, { ...upstreamConfig(upstream), server });
  running.push(gateway);
  return gateway;
}

/** Stops a gateway the way a service manager does and waits for it to exit. */
async function terminate(gateway: SpawnedGateway): Promise<number | null> {
  gateway.child.kill('SIGTERM');
  return gateway.exited;
}

describe('kill -9 during concurrent chats', () => {
  it('has every request answered 200 before the crash in the usage ledger after a restart, and charged to the balance', async () => {
    const gateway = await start();
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 40 }, path: '/v1/chat/completions' });
    const answered: { id: string; cost: number }[] = [];
    let killed = false;
    const one = async (i: number) => {
      const id = `crash-${i}`;
      const response = await gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'x-request-id': id },
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: `question number ${i}` }] },
      });
      const body = (await response.json()) as Json;
      if (response.status !== 200 || body.object !== 'chat.completion') return;
      answered.push({ id, cost: Number(response.headers.get('x-request-cost')) });
      if (answered.length >= 100 && !killed) {
        killed = true;
        gateway.child.kill('SIGKILL');
      }
    };
    await Promise.allSettled(Array.from({ length: 200 }, (_, i) => one(i)));
    expect(killed).toBe(true);
    expect(await gateway.exited).toBeNull();
    expect(answered.length).toBeGreaterThanOrEqual(100);

    const restarted = await start();
    const usage = (
      await json(await restarted.request('/account/usage', { headers: { authorization: '', 'x-api-key': ADMIN_KEY } }))
    ).usage;
    const chats = usage.by_model.find((group: Json) => group.key === 'svc-large-3-2512');
    expect(chats.requests).toBeGreaterThanOrEqual(answered.length);
    expect(chats.requests).toBeLessThanOrEqual(200);
    const me = await json(await restarted.request('/account/me'));
    expect(100 - me.balance.amount).toBeCloseTo(usage.total_cost, 6);
    expect(usage.total_cost).toBeGreaterThanOrEqual(answered.reduce((sum, entry) => sum + entry.cost, 0) - 1e-9);
    expect(await terminate(restarted)).toBe(0);

    // Exactly: each answered request, by its id, with its cost.
    const db = new Libsql(join(dataDir, 'switchyard.db'), { readonly: true });
    try {
      const stored = new Map(
        (
          db.prepare('SELECT request_id, cost, status FROM usage').all() as {
            request_id: string;
            cost: number;
            status: number;
          }[]
        ).map((row) => [row.request_id, row]),
      );
      const missing = answered.filter((entry) => stored.get(entry.id)?.status !== 200);
      expect(missing).toEqual([]);
      for (const entry of answered) expect(stored.get(entry.id)!.cost).toBeCloseTo(entry.cost, 9);
    } finally {
      db.close();
    }
  }, 120_000);

  it('kill -9 the moment streamed answers end: every stream whose [DONE] reached the client is in the usage ledger after a restart', async () => {
    const gateway = await start();
    const answered: string[] = [];
    let killed = false;
    const one = async (i: number) => {
      const id = `crash-stream-${i}`;
      const response = await gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'x-request-id': id },
        json: { model: 'svc-large-3', stream: true, messages: [{ role: 'user', content: `stream ${i}` }] },
      });
      if (response.status !== 200 || !response.body) return;
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        if (!text.includes('data: [DONE]')) continue;
        answered.push(id);
        // No grace at all: the process dies in the same turn the client read the end of the answer.
        if (answered.length >= 5 && !killed) {
          killed = true;
          gateway.child.kill('SIGKILL');
        }
        return;
      }
    };
    await Promise.allSettled(Array.from({ length: 40 }, (_, i) => one(i)));
    expect(killed).toBe(true);
    expect(await gateway.exited).toBeNull();

    const restarted = await start();
    expect(await terminate(restarted)).toBe(0);
    const db = new Libsql(join(dataDir, 'switchyard.db'), { readonly: true });
    try {
      const stored = new Set(
        (db.prepare('SELECT request_id FROM usage WHERE status = 200').all() as { request_id: string }[]).map(
          (row) => row.request_id,
        ),
      );
      expect(answered.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      db.close();
    }
  }, 120_000);
});

async function uploadBatch(gateway: SpawnedGateway, count: number): Promise<string> {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      custom_id: `line-${i}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'svc-large-3', messages: [{ role: 'user', content: `batch line-${i}` }] },
    }),
  );
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob([lines.join('\n')], { type: 'application/jsonl' }), 'input.jsonl');
  const file = await json(await gateway.request('/v1/files', { method: 'POST', body: form }));
  const batch = await json(
    await gateway.request('/v1/batch', {
      method: 'POST',
      json: { input_file_id: file.id, endpoint: '/v1/chat/completions' },
    }),
  );
  expect(batch.id).toMatch(/^batch_/);
  return batch.id;
}

/** How many times each line's request reached the upstream. */
function upstreamCounts(count: number): number[] {
  const texts = upstream.requests.map((request) => JSON.stringify(request.body));
  return Array.from({ length: count }, (_, i) => texts.filter((text) => text.includes(`"batch line-${i}"`)).length);
}

async function finishedBatch(gateway: SpawnedGateway, id: string): Promise<{ batch: Json; customIds: string[] }> {
  let batch: Json;
  await expect
    .poll(
      async () => {
        batch = await json(await gateway.request(`/v1/batch/${id}`));
        return batch.status;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe('completed');
  const output = await (await gateway.request(`/v1/files/${batch.output_file_id}/content`)).text();
  return {
    batch,
    customIds: output
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as Json).custom_id),
  };
}

describe('batches across a stop', () => {
  const LINES = 8;

  it('SIGTERM lets the line in flight finish and records it: after a restart every line reached the upstream exactly once', async () => {
    // Three rounds of lines (the per-batch concurrency at once), 0.6 s a round: the signal has two rounds
    // (1.2 s), not one, to arrive before every line has started, however late a busy machine handles it.
    const lines = 3 * DEFAULT_SERVER.batch_concurrency_per_batch;
    const gateway = await start({ shutdown_grace_ms: 10_000 });
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 }, path: '/v1/chat/completions' });
    const id = await uploadBatch(gateway, lines);
    await expect.poll(() => upstream.requests.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    expect(await terminate(gateway)).toBe(0);
    const stoppedAt = upstream.requests.length;
    expect(stoppedAt).toBeLessThan(lines);
    expect(upstream.requests.every((request) => !request.aborted)).toBe(true);

    upstream.setBehaviour(null);
    const restarted = await start();
    const { batch, customIds } = await finishedBatch(restarted, id);
    expect(batch.request_counts).toEqual({ total: lines, completed: lines, failed: 0 });
    expect(customIds.sort()).toEqual(Array.from({ length: lines }, (_, i) => `line-${i}`).sort());
    expect(upstreamCounts(lines)).toEqual(Array.from({ length: lines }, () => 1));
  }, 120_000);

  it('kill -9 loses no line and repeats at most the lines in flight', async () => {
    const gateway = await start();
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 }, path: '/v1/chat/completions' });
    const id = await uploadBatch(gateway, LINES);
    await expect.poll(() => upstream.requests.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    gateway.child.kill('SIGKILL');
    await gateway.exited;

    upstream.setBehaviour(null);
    const restarted = await start();
    const { batch, customIds } = await finishedBatch(restarted, id);
    expect(batch.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    expect(customIds.sort()).toEqual(Array.from({ length: LINES }, (_, i) => `line-${i}`).sort());
    const counts = upstreamCounts(LINES);
    expect(counts.every((count) => count >= 1)).toBe(true);
    // The lines in flight at the kill (at most the per-batch concurrency) may run twice, no other.
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(
      LINES + DEFAULT_SERVER.batch_concurrency_per_batch,
    );
  }, 120_000);
});
