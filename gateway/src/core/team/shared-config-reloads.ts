import type { RedisConnection } from '../../store/redis/redis-connection.js';
import type { ConfigFileReload } from '../settings/config-file-reload.js';
import { subscribeChannel } from './subscribe-channel.js';

interface SharedConfigReloadsOptions {
  instanceId: string;
  warn(object: object, message: string): void;
}

/**
 * Team mode's config-file reloads: an instance that reloads its config file (SIGHUP) publishes it on
 * `<prefix>config-reloads`, and every other instance reads its own copy of the file again at once
 * (every instance takes the same file). A reload missed while Redis was away is made when it is back.
 */
export async function shareConfigReloads(
  redis: RedisConnection,
  reloads: ConfigFileReload,
  options: SharedConfigReloadsOptions,
): Promise<void> {
  const channel = `${redis.prefix}config-reloads`;
  const reloadFile = (why: string) =>
    void reloads
      .reload(why, true)
      .catch((error: unknown) => options.warn({ err: error }, 'team mode: could not reload the config file'));
  reloads.announceReloadsTo(() => {
    redis.commands
      .publish(channel, JSON.stringify({ from: options.instanceId }))
      .catch((error: unknown) => options.warn({ err: error }, 'team mode: could not announce a config file reload'));
  });
  redis.subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: { from?: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from !== options.instanceId) reloadFile(`reloaded by ${message.from ?? 'another instance'}`);
  });
  redis.onReconnect(() => reloadFile('Redis is back (a reload may have been missed)'));
  await subscribeChannel(redis, channel, (error) =>
    options.warn({ err: error }, 'team mode: could not subscribe to config file reloads; trying again'),
  );
}
