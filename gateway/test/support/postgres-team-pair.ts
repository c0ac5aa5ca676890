import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { startGateway, type TestGateway } from './start-gateway.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from './team-of-gateways.js';
import { createTestDatabase } from './test-databases.js';
import { UPSTREAM_KEY, upstreamConfig } from './upstream-config.js';

export interface PostgresTeamPair {
  a: TestGateway;
  b: TestGateway;
  upstreamA: FakeUpstream;
  upstreamB: FakeUpstream;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * Two gateways (`gw-a`, `gw-b`) on one fresh PostgreSQL database, one Redis prefix and one files
 * folder, each on its own fake upstream, so each one's share of the work shows; `server` is their
 * config file's server section.
 */
export async function startPostgresTeamPair(server: Record<string, unknown>): Promise<PostgresTeamPair> {
  const database = await createTestDatabase();
  const prefix = `switchyard-test-${randomUUID()}:`;
  const filesDir = mkdtempSync(join(tmpdir(), 'switchyard-shared-files-'));
  const upstreams = await Promise.all([
    startFakeUpstream({ apiKey: UPSTREAM_KEY }),
    startFakeUpstream({ apiKey: UPSTREAM_KEY }),
  ]);
  const gateways: TestGateway[] = [];
  const close = async () => {
    await Promise.allSettled(gateways.map((gateway) => gateway.close()));
    await Promise.allSettled(upstreams.map((upstream) => upstream.close()));
    await dropRedisPrefix(TEST_REDIS_URL, prefix);
    await database.drop();
    rmSync(filesDir, { recursive: true, force: true });
  };
  try {
    for (const [id, upstream] of [
      ['gw-a', upstreams[0]],
      ['gw-b', upstreams[1]],
    ] as const)
      gateways.push(
        await startGateway({
          env: teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir }, id),
          config: { ...upstreamConfig(upstream), server },
        }),
      );
  } catch (error) {
    await close();
    throw error;
  }
  const [a, b] = gateways;
  const [upstreamA, upstreamB] = upstreams;
  return { a, b, upstreamA, upstreamB, databaseUrl: database.url, close };
}
