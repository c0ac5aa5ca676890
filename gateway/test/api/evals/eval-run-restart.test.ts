import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { ADMIN_KEY, json, type TestGateway } from '../../support/start-gateway.js';
import { upstreamConfig, UPSTREAM_KEY } from '../../support/upstream-config.js';
import { useFakeUpstream, useGateway } from '../../support/use-resources.js';

const CONCURRENCY = 4;

it('a restart in the middle of a 200-row run loses no row and runs again at most the rows in flight', async () => {
  const upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  const config = {
    ...upstreamConfig(upstream),
    server: { batch_concurrency: CONCURRENCY, batch_concurrency_per_batch: CONCURRENCY },
  };
  let gateway: TestGateway = await useGateway({ config });
  const openai = (on: TestGateway) => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${on.url}/v1`, maxRetries: 0 });
  upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 40 }, path: '/v1/chat/completions' });
  const evaluation = await openai(gateway).evals.create({
    data_source_config: { type: 'custom', item_schema: { type: 'object', properties: { n: { type: 'string' } } } },
    testing_criteria: [
      {
        type: 'string_check',
        name: 'echo',
        input: '{{sample.output_text}}',
        reference: 'row {{item.n}}',
        operation: 'eq',
      },
    ],
  });
  const run = await openai(gateway).evals.runs.create(evaluation.id, {
    data_source: {
      type: 'completions',
      model: 'svc-large-3',
      input_messages: { type: 'template', template: [{ role: 'user', content: 'row {{item.n}}' }] },
      source: { type: 'file_content', content: Array.from({ length: 200 }, (_, n) => ({ item: { n: String(n) } })) },
    },
  });
  const counts = async (on: TestGateway) =>
    (await json(await on.request(`/v1/evals/${evaluation.id}/runs/${run.id}`))).result_counts;
  await expect.poll(async () => (await counts(gateway)).passed, { timeout: 15_000 }).toBeGreaterThanOrEqual(20);
  const dataDir = gateway.dataDir;
  await gateway.stop();
  gateway = await useGateway({ dataDir, config });
  expect((await counts(gateway)).passed).toBeLessThan(200);
  upstream.setBehaviour(null);
  const status = async () => (await openai(gateway).evals.runs.retrieve(run.id, { eval_id: evaluation.id })).status;
  await expect.poll(status, { timeout: 15_000 }).toBe('completed');
  const done = await openai(gateway).evals.runs.retrieve(run.id, { eval_id: evaluation.id });
  expect(done.result_counts).toEqual({ total: 200, passed: 200, failed: 0, errored: 0 });
  const indexes = [];
  for await (const item of openai(gateway).evals.runs.outputItems.list(run.id, { eval_id: evaluation.id, limit: 100 }))
    indexes.push(item.datasource_item_id);
  expect(indexes).toEqual(Array.from({ length: 200 }, (_, n) => n));
  // Each row asked the model once, but for the rows in flight when the gateway stopped.
  const asked = upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;
  expect(asked).toBeGreaterThanOrEqual(200);
  expect(asked).toBeLessThanOrEqual(200 + CONCURRENCY);
});
