import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/database.js';
import { SettingsRepository } from '../../../src/store/settings-repository.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { startGateway, type TestGateway } from '../../support/start-gateway.js';
import { upstreamConfig } from '../../support/upstream-config.js';
import { useTempDir } from '../../support/use-resources.js';

const SECRET = 'sk-console-secret-7d3f';
const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'hello there' }] });

let first: FakeUpstream;
let second: FakeUpstream;
let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await first?.close();
  await second?.close();
});

/** The providers' rows in gateway_settings, as the database holds them. */
async function storedProviders(on: TestGateway): Promise<Record<string, unknown>[]> {
  return on.control.db.query
    .selectFrom('gateway_settings')
    .selectAll()
    .where('kind', '=', 'provider')
    .execute() as Promise<Record<string, unknown>[]>;
}

async function servedWithKey(on: TestGateway, model: string): Promise<void> {
  const answer = await on.request('/v1/chat/completions', { method: 'POST', json: chat(model) });
  expect(answer.status).toBe(200);
  expect(second.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
}

describe("console-added providers' API keys are encrypted at rest", () => {
  it('stores the key sealed under <data dir>/secret.key (mode 0600), never in plain text, and serves it after a restart', async () => {
    first = await startFakeUpstream();
    second = await startFakeUpstream({ apiKey: SECRET });
    gateway = await startGateway({ config: upstreamConfig(first) });
    const keyFile = join(gateway.dataDir, 'secret.key');
    expect(existsSync(keyFile)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    expect(
      (
        await gateway.request('/settings/providers', {
          method: 'POST',
          json: { id: 'second', type: 'openai', base_url: second.url, api_key: SECRET },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await gateway.request('/settings/routes/on-second', {
          method: 'PUT',
          json: { provider: 'second', upstream_model: 'm', capabilities: ['chat'] },
        })
      ).status,
    ).toBe(200);
    await servedWithKey(gateway, 'on-second');
    const rows = await storedProviders(gateway);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.parse(rows.find((row) => row.id === 'second')!.value as string).api_key).toMatch(/^enc:v1:/);

    const { dataDir } = gateway;
    await gateway.stop();
    gateway = await startGateway({ config: upstreamConfig(first), dataDir });
    await servedWithKey(gateway, 'on-second');
  });

  it('encrypts a key an earlier version stored in plain text at the first start, and still serves it', async () => {
    first = await startFakeUpstream();
    second = await startFakeUpstream({ apiKey: SECRET });
    const dataDir = useTempDir();
    const db = await openDatabase({ dataDir });
    const settings = new SettingsRepository(db);
    await settings.saveDocument('provider', 'legacy', { type: 'openai', base_url: second.url, api_key: SECRET });
    await settings.saveRoute({ id: 'on-legacy', provider: 'legacy', upstream_model: 'm', capabilities: ['chat'] });
    await db.close();

    gateway = await startGateway({ config: upstreamConfig(first), dataDir });
    await servedWithKey(gateway, 'on-legacy');
    const rows = await storedProviders(gateway);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.parse(rows[0].value as string).api_key).toMatch(/^enc:v1:/);
  });

  it('GATEWAY_SECRET_KEY replaces the file (team mode: one key for every instance); another key stops the start naming the provider', async () => {
    first = await startFakeUpstream();
    second = await startFakeUpstream({ apiKey: SECRET });
    const teamKey = randomBytes(32).toString('base64');
    gateway = await startGateway({ config: upstreamConfig(first), env: { GATEWAY_SECRET_KEY: teamKey } });
    const { dataDir } = gateway;
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
    await gateway.request('/settings/providers', {
      method: 'POST',
      json: { id: 'second', type: 'openai', base_url: second.url, api_key: SECRET },
    });
    await gateway.request('/settings/routes/on-second', {
      method: 'PUT',
      json: { provider: 'second', upstream_model: 'm', capabilities: ['chat'] },
    });
    await gateway.stop();

    await expect(
      startGateway({
        config: upstreamConfig(first),
        dataDir,
        env: { GATEWAY_SECRET_KEY: randomBytes(32).toString('hex') },
      }),
    ).rejects.toThrow(/provider "second" cannot be decrypted with this gateway's secret key \(GATEWAY_SECRET_KEY\)/);
    await expect(
      startGateway({ config: upstreamConfig(first), dataDir, env: { GATEWAY_SECRET_KEY: 'too-short' } }),
    ).rejects.toThrow(/GATEWAY_SECRET_KEY: must be 32 bytes/);
    gateway = await startGateway({ config: upstreamConfig(first), dataDir, env: { GATEWAY_SECRET_KEY: teamKey } });
    await servedWithKey(gateway, 'on-second');
  });
});
