import { randomUUID } from 'node:crypto';
import { onTestFinished } from 'vitest';
import { openRedis, type RedisConnection } from '../../src/store/redis/redis-connection.js';
import { dropRedisPrefix, TEST_REDIS_URL } from './team-of-gateways.js';

/**
 * `count` team connections to the test Redis under one fresh key prefix (as `count` instances would
 * have), closed and the prefix dropped when the test ends; every Lua script call on them is counted.
 */
export async function testRedisConnections(
  count = 1,
): Promise<{ connections: RedisConnection[]; prefix: string; scriptCalls: () => number }> {
  const prefix = `sy-test-${randomUUID()}:`;
  const connections: RedisConnection[] = [];
  let calls = 0;
  onTestFinished(async () => {
    await Promise.all(connections.map((redis) => redis.close()));
    await dropRedisPrefix(TEST_REDIS_URL, prefix);
  });
  for (let i = 0; i < count; i++) {
    const redis = await openRedis(TEST_REDIS_URL, prefix);
    const evalsha = redis.commands.evalsha.bind(redis.commands);
    redis.commands.evalsha = ((...args: Parameters<typeof evalsha>) => (calls++, evalsha(...args))) as typeof evalsha;
    connections.push(redis);
  }
  return { connections, prefix, scriptCalls: () => calls };
}
