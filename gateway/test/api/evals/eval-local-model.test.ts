import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_KEY, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';

/** The gateway with the real llama.cpp engine and the generated tiny model in <data>/models. */
let gateway: TestGateway;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-eval-llm-'));
  mkdirSync(join(dataDir, 'models'));
  await writeTinyLlamaGguf(join(dataDir, 'models', 'tiny-chat.gguf'), { seed: 3 });
  gateway = await startGateway({ dataDir, config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] } });
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('runs a completions eval on a local GGUF model: each row sampled by llama.cpp, graded, usage per model', async () => {
  const openai = new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const evaluation = await openai.evals.create({
    data_source_config: { type: 'custom', item_schema: { type: 'object', properties: { topic: { type: 'string' } } } },
    testing_criteria: [
      { type: 'string_check', name: 'not-empty', input: '{{sample.output_text}}', reference: '', operation: 'ne' },
      {
        type: 'text_similarity',
        name: 'self',
        input: '{{sample.output_text}}',
        reference: '{{sample.output_text}}',
        evaluation_metric: 'fuzzy_match',
        pass_threshold: 1,
      },
    ],
  });
  const run = await openai.evals.runs.create(evaluation.id, {
    data_source: {
      type: 'completions',
      model: 'tiny-chat',
      input_messages: { type: 'template', template: [{ role: 'user', content: 'Tell me about {{item.topic}}' }] },
      sampling_params: { temperature: 0, max_completion_tokens: 6 },
      source: { type: 'file_content', content: [{ item: { topic: 'trains' } }, { item: { topic: 'boats' } }] },
    },
  });
  const status = async () => (await openai.evals.runs.retrieve(run.id, { eval_id: evaluation.id })).status;
  await expect.poll(status, { timeout: 15_000 }).toBe('completed');
  const done = await openai.evals.runs.retrieve(run.id, { eval_id: evaluation.id });
  expect(done.result_counts).toEqual({ total: 2, passed: 2, failed: 0, errored: 0 });
  expect(done.per_model_usage).toEqual([
    expect.objectContaining({ model_name: 'tiny-chat', invocation_count: 2, completion_tokens: expect.any(Number) }),
  ]);
  expect(done.per_model_usage[0]!.completion_tokens).toBeGreaterThan(0);
  const items = (await openai.evals.runs.outputItems.list(run.id, { eval_id: evaluation.id })).data;
  for (const item of items) {
    expect(item.sample.input[0]!.content).toMatch(/^Tell me about (trains|boats)$/);
    expect(item.sample.output[0]!.content).not.toBe('');
    expect(item.sample.usage.completion_tokens).toBeLessThanOrEqual(6);
    expect(item.results.find((result) => result.name === 'self')).toMatchObject({ score: 1, passed: true });
  }
});
