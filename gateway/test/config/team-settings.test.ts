import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadGatewayOptions } from '../../src/config/load-options.js';

const load = (env: Record<string, string>) =>
  loadGatewayOptions({ env: { GATEWAY_DATA_DIR: '/tmp/switchyard-team-settings', ...env } });

describe('the team-mode run contract', () => {
  it('runs alone with no Redis and no database URL, and takes the instance id from GATEWAY_INSTANCE_ID', async () => {
    expect((await load({})).team).toEqual({ redisUrl: undefined, redisPrefix: 'switchyard:', databaseUrl: undefined });
    const options = await load({
      GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379/2',
      GATEWAY_REDIS_PREFIX: 'acme:',
      GATEWAY_INSTANCE_ID: 'gw-1',
    });
    expect(options.team).toEqual({
      redisUrl: 'redis://127.0.0.1:6379/2',
      redisPrefix: 'acme:',
      databaseUrl: undefined,
    });
    expect(options.server.instanceId).toBe('gw-1');
  });

  it('takes PostgreSQL with Redis, or alone with GATEWAY_INSTANCES=1, and refuses it without either', async () => {
    await expect(load({ GATEWAY_DATABASE_URL: 'postgres://127.0.0.1/switchyard' })).rejects.toThrow(
      /GATEWAY_REDIS_URL is not.*GATEWAY_INSTANCES=1/,
    );
    expect(
      (await load({ GATEWAY_DATABASE_URL: 'postgres://127.0.0.1/switchyard', GATEWAY_INSTANCES: '1' })).team
        ?.databaseUrl,
    ).toBe('postgres://127.0.0.1/switchyard');
    expect(
      (await load({ GATEWAY_DATABASE_URL: 'postgresql://db/s', GATEWAY_REDIS_URL: 'redis://127.0.0.1:6379' })).team,
    ).toMatchObject({ databaseUrl: 'postgresql://db/s', redisUrl: 'redis://127.0.0.1:6379' });
  });

  it('names the variable of a malformed URL or instance count', async () => {
    await expect(load({ GATEWAY_REDIS_URL: 'http://127.0.0.1:6379' })).rejects.toThrow(
      /GATEWAY_REDIS_URL: the scheme must be redis:\/\/ or rediss:\/\//,
    );
    await expect(load({ GATEWAY_REDIS_URL: 'not a url' })).rejects.toThrow(ConfigError);
    await expect(load({ GATEWAY_DATABASE_URL: 'mysql://x/y', GATEWAY_REDIS_URL: 'redis://h:1' })).rejects.toThrow(
      /GATEWAY_DATABASE_URL: the scheme must be postgres:\/\//,
    );
    await expect(load({ GATEWAY_INSTANCES: 'three' })).rejects.toThrow(
      /GATEWAY_INSTANCES: "three" is not a positive whole number/,
    );
  });

  it('keeps file bytes in <GATEWAY_DATA_DIR>/files unless GATEWAY_FILES_DIR names a shared directory', async () => {
    expect((await load({})).filesDir).toBe('/tmp/switchyard-team-settings/files');
    expect((await load({ GATEWAY_FILES_DIR: '/mnt/shared/switchyard-files' })).filesDir).toBe(
      '/mnt/shared/switchyard-files',
    );
    expect((await load({ GATEWAY_FILES_DIR: '  ' })).filesDir).toBe('/tmp/switchyard-team-settings/files');
  });
});
