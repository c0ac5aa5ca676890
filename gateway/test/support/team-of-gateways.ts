import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startGateway, type StartOptions, type TestGateway } from './start-gateway.js';

/** The real Redis the team-mode tests share (each test its own key prefix, removed afterwards). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The environment of instance `id` of a team on PostgreSQL and Redis that shares one files folder. */
export function teamInstanceEnv(
  team: { databaseUrl: string; prefix: string; filesDir: string; redisUrl?: string },
  id: string,
): Record<string, string> {
  return {
    GATEWAY_DATABASE_URL: team.databaseUrl,
    GATEWAY_REDIS_URL: team.redisUrl ?? TEST_REDIS_URL,
    GATEWAY_REDIS_PREFIX: team.prefix,
    GATEWAY_INSTANCE_ID: id,
    GATEWAY_FILES_DIR: team.filesDir,
  };
}

export interface TeamOfGateways {
  instances: TestGateway[];
  prefix: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Deletes every key under `prefix`. */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * `count` real gateways on port 0 sharing one data folder (one SQLite file in WAL mode, opened by
 * each) and one Redis under a fresh key prefix: team mode as several instances run it.
 */
export async function startTeamOfGateways(
  count: number,
  options: StartOptions & { redisUrl?: string } = {},
): Promise<TeamOfGateways> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-team-'));
  const prefix = `switchyard-test-${randomUUID()}:`;
  const instances: TestGateway[] = [];
  const close = async () => {
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    rmSync(dataDir, { recursive: true, force: true });
    await dropRedisPrefix(TEST_REDIS_URL, prefix);
  };
  try {
    // One after the other: the first creates the database and the bootstrap key.
    for (let i = 0; i < count; i++) {
      const env = {
        GATEWAY_REDIS_URL: options.redisUrl ?? TEST_REDIS_URL,
        GATEWAY_REDIS_PREFIX: prefix,
        GATEWAY_INSTANCE_ID: `instance-${String.fromCharCode(97 + i)}`,
        ...options.env,
      };
      instances.push(await startGateway({ ...options, dataDir, env }));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { instances, prefix, dataDir, close };
}
