import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { spawnGateway } from '../../support/spawn-gateway.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { startTeamOfGateways, type TeamOfGateways } from '../../support/team-of-gateways.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useTempDir } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let team: TeamOfGateways | undefined;

beforeEach(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
});
afterEach(async () => {
  await team?.close();
  team = undefined;
  await upstream.close();
});

const modelIds = async (on: { request(path: string): Promise<Response> }) =>
  (await json(await on.request('/v1/models'))).data.map((model: Json) => model.id as string);

/** The test config with one more route, as an operator would edit the file. */
const withReloadedRoute = (base: Record<string, unknown>) => {
  const config = upstreamConfig(upstream);
  return {
    ...base,
    providers: config.providers,
    models: [
      ...config.models,
      { id: 'reloaded-model', provider: 'upstream', upstream_model: 'my-model', capabilities: ['chat'] },
    ],
  };
};

describe('config file reloads', () => {
  it('team mode: a reload on one instance reaches the other within a second; a file that does not validate is refused and the running routes stay', async () => {
    team = await startTeamOfGateways(2, { config: upstreamConfig(upstream) });
    const [a, b]: TestGateway[] = team.instances;
    const configPath = join(team.dataDir, 'config.yaml');
    expect(await modelIds(b)).not.toContain('reloaded-model');

    writeFileSync(configPath, stringify(withReloadedRoute({ server: { warm_engines: false } })));
    await a.control.configReload.reload('test');
    expect(await modelIds(a)).toContain('reloaded-model');
    const started = performance.now();
    await expect.poll(() => modelIds(b), { timeout: 1000, interval: 20 }).toContain('reloaded-model');
    expect(performance.now() - started).toBeLessThan(1000);
    const answer = await b.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: 'reloaded-model', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(answer.status).toBe(200);

    writeFileSync(configPath, 'models: [{ id: 42 }]\n');
    await expect(a.control.configReload.reload('test')).rejects.toThrow(/config/i);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const on of [a, b]) expect(await modelIds(on)).toContain('reloaded-model');
  });

  it('`switchyard serve` reloads the config file on SIGHUP', async () => {
    const dataDir = useTempDir('switchyard-sighup-');
    const gateway = await spawnGateway(dataDir, upstreamConfig(upstream));
    onTestFinished(() => {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    });
    expect(await modelIds(gateway)).not.toContain('reloaded-model');
    writeFileSync(join(dataDir, 'config.yaml'), stringify(withReloadedRoute({ server: { warm_engines: false } })));
    gateway.child.kill('SIGHUP');
    await expect
      .poll(() => gateway.output().stdout, { timeout: 5000 })
      .toMatch(/SIGHUP received: config file reloaded/);
    expect(await modelIds(gateway)).toContain('reloaded-model');
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
  });
});
