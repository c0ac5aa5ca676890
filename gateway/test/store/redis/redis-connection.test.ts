import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openRedis } from '../../../src/store/redis/redis-connection.js';
import { startTcpRelay } from '../../support/tcp-relay.js';
import { TEST_REDIS_URL } from '../../support/team-of-gateways.js';

describe('the team connection to Redis, through an outage', () => {
  it('subscribes its channels again when Redis is back, and closes after losing it again mid-resubscribe without an unhandled rejection', async () => {
    const target = new URL(TEST_REDIS_URL);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 6379));
    const publisher = new Redis(TEST_REDIS_URL);
    onTestFinished(async () => {
      publisher.disconnect();
      await relay.close();
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    onTestFinished(() => void process.off('unhandledRejection', onUnhandled));

    const channel = `sy-test-${randomUUID()}:changes`;
    const redis = await openRedis(`redis://127.0.0.1:${relay.port}`, 'sy-test:');
    const received: string[] = [];
    redis.subscriber.on('message', (_channel: string, text: string) => received.push(text));
    await redis.subscribe(channel);

    const outage = async () => {
      await relay.cut();
      await once(redis.subscriber, 'close');
      await relay.restore();
    };
    await outage();
    await once(redis.subscriber, 'ready');
    await expect
      .poll(
        async () => (await publisher.publish(channel, 'after the outage')) > 0 && received.includes('after the outage'),
        { timeout: 5000 },
      )
      .toBe(true);

    // Lost again as it comes back, with the SUBSCRIBE sent on reconnecting still unanswered, then closed.
    await outage();
    await once(redis.subscriber, 'ready');
    await relay.cut();
    await redis.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
  });
});
