import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { postgresConnection } from '../../src/store/database.js';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway.js';
import { startTcpRelay } from '../support/tcp-relay.js';
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

async function rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(postgresConnection(database.url));
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const killed = async (gateway: SpawnedGateway) => {
  gateway.child.kill('SIGKILL');
  return gateway.exited;
};

describe('usage answered during a PostgreSQL outage survives kill -9 (the built CLI, the local usage journal)', () => {
  it('keeps the refused usage in GATEWAY_DATA_DIR, writes it exactly once at the next start, and a replay of rows already stored bills nothing twice', async () => {
    const target = new URL(database.url);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
    onTestFinished(() => relay.close());
    const through = new URL(database.url);
    through.port = String(relay.port);
    const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
    const dataDir = useTempDir('switchyard-journal-');
    const env = { GATEWAY_DATABASE_URL: through.toString(), GATEWAY_INSTANCES: '1' };
    const start = async () => {
      const gateway = await spawnGateway(dataDir, upstreamConfig(upstream), env);
      onTestFinished(() => {
        if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      });
      return gateway;
    };
    const journals = () => readdirSync(dataDir).filter((name) => name.startsWith('usage-journal'));
    const chat = (gateway: SpawnedGateway, id: string) =>
      gateway.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'x-request-id': id },
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: `question ${id}` }] },
      });

    const first = await start();
    expect((await chat(first, 'journal-before')).status).toBe(200);
    const balanceBefore = (await rows<{ balance: number }>('SELECT balance FROM account'))[0].balance;

    await relay.cut();
    const ids = Array.from({ length: 6 }, (_, i) => `journal-outage-${i}`);
    const answers = await Promise.all(ids.map((id) => chat(first, id)));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    const costs = answers.map((answer) => Number(answer.headers.get('x-request-cost')));
    // Crash during the outage: no clean stop, nothing flushed.
    expect(await killed(first)).toBeNull();
    // The journal of the killed gateway, named by its process id (it also holds the usage committed before the outage).
    const journal = join(dataDir, `usage-journal.${first.child.pid}.ndjson`);
    const kept = readFileSync(journal, 'utf8');
    expect(
      kept
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).request_id)
        .filter((id) => id.startsWith('journal-outage-'))
        .sort(),
    ).toEqual([...ids].sort());

    await relay.restore();
    const second = await start();
    const stored = await rows<{ request_id: string; n: number }>(
      "SELECT request_id, COUNT(*)::int AS n FROM usage WHERE request_id LIKE 'journal-outage-%' GROUP BY request_id ORDER BY request_id",
    );
    expect(stored).toEqual([...ids].sort().map((id) => ({ request_id: id, n: 1 })));
    expect(existsSync(journal)).toBe(false);
    expect(journals()).toEqual([`usage-journal.${second.child.pid}.ndjson`]);
    const debited = costs.reduce((sum, cost) => sum + cost, 0);
    expect(debited).toBeGreaterThan(0);
    const balanceAfter = (await rows<{ balance: number }>('SELECT balance FROM account'))[0].balance;
    expect(balanceBefore - balanceAfter).toBeCloseTo(debited, 9);
    const rolledUp = await rows<{ requests: number }>(
      "SELECT SUM(requests)::int AS requests FROM usage_daily WHERE model LIKE 'svc-large-3%'",
    );
    expect(rolledUp[0].requests).toBe(ids.length + 1);

    // A crash between the commit and the emptying of the journal: the same rows come back at the next start.
    expect(await killed(second)).toBeNull();
    writeFileSync(journal, kept);
    const third = await start();
    expect(
      (await rows<{ n: number }>("SELECT COUNT(*)::int AS n FROM usage WHERE request_id LIKE 'journal-outage-%'"))[0].n,
    ).toBe(ids.length);
    expect((await rows<{ balance: number }>('SELECT balance FROM account'))[0].balance).toBeCloseTo(balanceAfter, 9);
    expect(existsSync(journal)).toBe(false);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    // A clean stop with everything committed leaves no journal behind.
    expect(journals()).toEqual([]);
  }, 60_000);
});
