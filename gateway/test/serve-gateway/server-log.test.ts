import { afterEach, expect, it } from 'vitest';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway.js';
import { useTempDir } from '../support/use-resources.js';

let gateway: SpawnedGateway | undefined;
afterEach(async () => {
  gateway?.child.kill('SIGKILL');
  await gateway?.exited;
  gateway = undefined;
});

it('every server log line is JSON with one msg: the failure detail is its own field', async () => {
  const dataDir = useTempDir('switchyard-log-');
  // A provider on a port nothing listens on: the request fails with a 5xx the gateway logs.
  const config = {
    providers: [
      { id: 'gone', type: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key: 'x', timeouts: { connect: 500 } },
    ],
    models: [{ id: 'gone-model', provider: 'gone', upstream_model: 'm', capabilities: ['chat'], max_retries: 0 }],
  };
  gateway = await spawnGateway(dataDir, config, { GATEWAY_LOG_LEVEL: 'warn' });
  const answer = await gateway.request('/v1/chat/completions', {
    method: 'POST',
    json: { model: 'gone-model', messages: [{ role: 'user', content: 'hi' }] },
  });
  expect(answer.status).toBeGreaterThanOrEqual(500);
  await expect.poll(() => gateway!.output().stdout).toMatch(/"request failed"/);
  const lines = gateway
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('{'));
  const failed = lines.find((line) => line.includes('"request failed"'))!;
  expect(failed.match(/"msg":/g)).toHaveLength(1);
  const record = JSON.parse(failed) as { msg: string; detail: string; code: string };
  expect(record.msg).toBe('request failed');
  expect(record.detail).toEqual(expect.any(String));
  expect(record.detail.length).toBeGreaterThan(0);
  for (const line of lines) expect(line.match(/"msg":/g)?.length ?? 0, line).toBeLessThanOrEqual(1);
});
