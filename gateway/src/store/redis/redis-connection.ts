import type { Redis } from 'ioredis';
import { retryAtStart } from './retry-at-start.js';

/** The Redis team mode shares: one connection for commands, one for pub/sub, and the key prefix of this deployment. */
export interface RedisConnection {
  readonly commands: Redis;
  readonly subscriber: Redis;
  /** Prepended to every key and channel, so several deployments (and test files) can share one Redis. */
  readonly prefix: string;
  /** Subscribes the subscriber connection to `channel`, and again after every reconnect. */
  subscribe(channel: string): Promise<void>;
  /** Called after the connection came back from an outage (pub/sub messages may have been missed). */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/** The URL without its password, for messages and logs. */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}

function client(RedisClient: typeof Redis, url: string, options: { autoPipelining?: boolean } = {}): Redis {
  return new RedisClient(url, {
    lazyConnect: true,
    // openRedis subscribes again itself: ioredis's own SUBSCRIBE after a reconnect has no handler, so a
    // connection closed while it is on its way (a quick stop after an outage) was an unhandled rejection.
    autoResubscribe: false,
    // Commands issued in the same turn of the event loop (a request's rate check and spend hold, and
    // those of the other requests of that turn) leave in one socket write instead of one write each.
    enableAutoPipelining: options.autoPipelining ?? false,
    // Fail fast while Redis is away: a request must get its 503 at once, not wait for a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 2000),
  });
}

/** One try at both connections, or the message saying which URL did not answer and why. */
async function connect(url: string): Promise<{ commands: Redis; subscriber: Redis }> {
  // Loaded by team mode alone: ioredis took about 40 ms of every start.
  const { Redis: RedisClient } = await import('ioredis');
  const commands = client(RedisClient, url, { autoPipelining: true });
  const subscriber = client(RedisClient, url);
  // A lost connection is reported through the calls that fail; the emitter must not crash the process.
  let lastError: Error | undefined;
  commands.on('error', (error: Error) => (lastError = error));
  subscriber.on('error', () => undefined);
  try {
    await Promise.all([commands.connect(), subscriber.connect()]);
    await commands.ping();
    return { commands, subscriber };
  } catch (error) {
    commands.disconnect();
    subscriber.disconnect();
    // ioredis rejects with "Connection is closed."; the socket's own error (ECONNREFUSED, ...) says more.
    const why = (lastError ?? (error as Error)).message;
    throw new Error(
      `Redis at ${redactedRedisUrl(url)} did not answer (${why}). Start Redis, or leave GATEWAY_REDIS_URL unset to run a single gateway.`,
    );
  }
}

/**
 * Connects to Redis, or throws a message saying which URL did not answer and why. Once connected,
 * ioredis reconnects by itself after an outage, and the subscriber's channels are subscribed again.
 */
export async function openRedis(url: string, prefix: string): Promise<RedisConnection> {
  // A Redis slow to answer at start is asked again (retryAtStart); one that is absent still ends it.
  const { commands, subscriber } = await retryAtStart(() => connect(url));
  const reconnectListeners: (() => void)[] = [];
  const channels = new Set<string>();
  let lost = false;
  subscriber.on('close', () => (lost = true));
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    if (channels.size > 0) subscriber.subscribe(...channels).catch(() => undefined);
    for (const listener of reconnectListeners) listener();
  });
  return {
    commands,
    subscriber,
    prefix,
    async subscribe(channel) {
      channels.add(channel);
      await subscriber.subscribe(channel);
    },
    onReconnect: (listener) => void reconnectListeners.push(listener),
    async close() {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
    },
  };
}
