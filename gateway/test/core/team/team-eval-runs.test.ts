import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { startPostgresTeamPair, type PostgresTeamPair } from '../../support/postgres-team-pair.js';
import { ADMIN_KEY, type TestGateway } from '../../support/start-gateway.js';

/** Two gateways on one PostgreSQL and Redis, each on its own fake upstream, so each one's share shows; shared by the tests. */
let pair: PostgresTeamPair;
let a: TestGateway;
let b: TestGateway;
let upstreamA: FakeUpstream;
let upstreamB: FakeUpstream;

beforeAll(async () => {
  pair = await startPostgresTeamPair({
    batch_concurrency: 2,
    batch_concurrency_per_batch: 2,
    batch_recovery_seconds: 1,
  });
  ({ a, b, upstreamA, upstreamB } = pair);
});
afterAll(() => pair?.close());

it('two instances share the rows of one eval run; each row is graded once and both see the result', async () => {
  for (const upstream of [upstreamA, upstreamB])
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 50 }, path: '/v1/chat/completions' });
  const openai = (on: TestGateway) => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${on.url}/v1`, maxRetries: 0 });
  const evaluation = await openai(a).evals.create({
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
  const run = await openai(a).evals.runs.create(evaluation.id, {
    data_source: {
      type: 'completions',
      model: 'svc-large-3',
      input_messages: { type: 'template', template: [{ role: 'user', content: 'row {{item.n}}' }] },
      source: { type: 'file_content', content: Array.from({ length: 40 }, (_, n) => ({ item: { n: String(n) } })) },
    },
  });
  const status = async () => (await openai(b).evals.runs.retrieve(run.id, { eval_id: evaluation.id })).status;
  await expect.poll(status, { timeout: 20_000 }).toBe('completed');
  const done = await openai(a).evals.runs.retrieve(run.id, { eval_id: evaluation.id });
  expect(done.result_counts).toEqual({ total: 40, passed: 40, failed: 0, errored: 0 });
  const asked = (upstream: FakeUpstream) =>
    upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;
  expect(asked(upstreamA)).toBeGreaterThan(0);
  expect(asked(upstreamB)).toBeGreaterThan(0);
  expect(asked(upstreamA) + asked(upstreamB)).toBe(40);
  const items = [];
  for await (const item of openai(b).evals.runs.outputItems.list(run.id, { eval_id: evaluation.id, limit: 100 }))
    items.push(item.datasource_item_id);
  expect(items).toEqual(Array.from({ length: 40 }, (_, n) => n));
});
