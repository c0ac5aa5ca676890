import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { awayFromMinuteEnd, balancedConfig, chatsOn, EIGHTY_TWENTY, sendChats } from '../../support/balanced-route.js';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { dropRedisPrefix, teamInstanceEnv, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { createTestDatabase } from '../../support/test-databases.js';
import { useFakeUpstream } from '../../support/use-resources.js';

describe('balanced routes in team mode (three instances on PostgreSQL and Redis)', () => {
  it('keep the 80/20 split across instances and share each deployment rpm through Redis', async () => {
    const database = await createTestDatabase();
    const prefix = `switchyard-test-${randomUUID()}:`;
    const filesDir = mkdtempSync(join(tmpdir(), 'switchyard-shared-files-'));
    const instances: TestGateway[] = [];
    onTestFinished(async () => {
      await Promise.allSettled(instances.map((instance) => instance.close()));
      await dropRedisPrefix(TEST_REDIS_URL, prefix);
      await database.drop();
      rmSync(filesDir, { recursive: true, force: true });
    });
    const [east, west] = [await useFakeUpstream(), await useFakeUpstream()];
    const config = balancedConfig(east, west, { deployments: EIGHTY_TWENTY });
    config.models.push({
      ...config.models[0]!,
      id: 'svc-metered',
      routing_strategy: 'usage_based',
      deployments: [
        { provider: 'east', upstream_model: 'metered-east', rpm: 5 },
        { provider: 'west', upstream_model: 'metered-west', rpm: 7 },
      ],
    });
    const start = async (id: string) => {
      const instance = await startGateway({
        env: teamInstanceEnv({ databaseUrl: database.url, prefix, filesDir }, id),
        config,
      });
      instances.push(instance);
      return instance;
    };
    // The first migrates the database; the other two start together.
    await start('gw-a');
    await Promise.all([start('gw-b'), start('gw-c')]);

    // 300 requests: 80 % ± 8 % is 3.5 standard deviations.
    const failed = await Promise.all(instances.map((instance) => sendChats(instance.url, 100, 6)));
    expect(failed.flat()).toEqual([]);
    const total = chatsOn(east).length + chatsOn(west).length;
    expect(total).toBe(300);
    expect(chatsOn(east).length / total).toBeGreaterThanOrEqual(0.72);
    expect(chatsOn(east).length / total).toBeLessThanOrEqual(0.88);
    for (const instance of instances) {
      const model = await json(await instance.request('/v1/models/svc-balanced'));
      expect(model.deployments[0].requests + model.deployments[1].requests).toBe(100);
    }

    // 5 + 7 requests a minute in all: the twelve first of 18 (6 per instance) pass, the others are refused.
    await awayFromMinuteEnd();
    const metered = async (instance: TestGateway) => {
      const statuses: number[] = [];
      for (let index = 0; index < 6; index++) {
        const response = await instance.request('/v1/chat/completions', {
          method: 'POST',
          json: { model: 'svc-metered', messages: [{ role: 'user', content: 'hi' }] },
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      return statuses;
    };
    const statuses = (await Promise.all(instances.map(metered))).flat();
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 503)).toHaveLength(6);
    const modelOf = (request: { body: unknown }) => (request.body as { model: string }).model;
    expect(chatsOn(east).filter((request) => modelOf(request) === 'metered-east')).toHaveLength(5);
    expect(chatsOn(west).filter((request) => modelOf(request) === 'metered-west')).toHaveLength(7);
  });
});
