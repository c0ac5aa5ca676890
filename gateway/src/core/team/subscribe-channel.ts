import type { RedisConnection } from '../../store/redis/redis-connection.js';

const RETRY_MS = 1000;

/**
 * Subscribes the team's subscriber connection to `channel` without failing the start: a SUBSCRIBE
 * that times out (a busy start, Redis slow to answer) is reported and tried again every second until
 * it holds. The connection subscribes again by itself after a reconnect.
 */
export async function subscribeChannel(
  redis: RedisConnection,
  channel: string,
  onError: (error: unknown) => void,
): Promise<void> {
  try {
    await redis.subscribe(channel);
  } catch (error) {
    onError(error);
    const retry = setTimeout(() => void subscribeChannel(redis, channel, onError), RETRY_MS);
    retry.unref();
  }
}
