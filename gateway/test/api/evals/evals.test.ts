import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { scriptedChatAnswer } from '../../support/scripted-chat-answer.js';
import { ADMIN_KEY, json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

/** The default model echoes the user's message (the fake upstream); two judge routes answer as scripted. */
beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  const config = upstreamConfig(upstream);
  config.models.push(
    { id: 'label-judge', provider: 'upstream', upstream_model: 'label-judge-model', capabilities: ['chat'] },
    { id: 'score-judge', provider: 'upstream', upstream_model: 'score-judge-model', capabilities: ['chat'] },
  );
  gateway = await startGateway({ config });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  upstream.setBehaviour(null);
});

const client = (apiKey = ADMIN_KEY) => new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

async function memberKey(): Promise<string> {
  const response = await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } });
  expect(response.status).toBe(201);
  return (await json(response)).key;
}

/** A judge's scripted answer, for every request to its upstream model. */
const judgeAnswers = (model: string, content: string) => ({ ...scriptedChatAnswer(content), times: undefined, model });

const itemSchema = {
  type: 'object',
  properties: { question: { type: 'string' }, answer: { type: 'string' } },
  required: ['question', 'answer'],
};

const untilEnded = async (openai: OpenAI, evalId: string, runId: string) => {
  await expect
    .poll(async () => (await openai.evals.runs.retrieve(runId, { eval_id: evalId })).status, { timeout: 15_000 })
    .toMatch(/completed|failed|canceled/);
  return openai.evals.runs.retrieve(runId, { eval_id: evalId });
};

describe('evals through the official openai SDK', () => {
  it('runs a completions data source and grades each row with every grader type, as computed by hand', async () => {
    upstream.setBehaviour([
      judgeAnswers('label-judge-model', '{"result": "good"}'),
      judgeAnswers('score-judge-model', '{"result": 0.25}'),
    ]);
    const key = await memberKey();
    const openai = client(key);
    const evaluation = await openai.evals.create({
      name: 'echo quality',
      metadata: { team: 'search' },
      data_source_config: { type: 'custom', item_schema: itemSchema, include_sample_schema: true },
      testing_criteria: [
        {
          type: 'string_check',
          name: 'exact',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          operation: 'eq',
        },
        {
          type: 'text_similarity',
          name: 'fuzzy',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          evaluation_metric: 'fuzzy_match',
          pass_threshold: 0.8,
        },
        {
          type: 'text_similarity',
          name: 'bleu',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          evaluation_metric: 'bleu',
          pass_threshold: 0.5,
        },
        {
          type: 'text_similarity',
          name: 'rouge_l',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          evaluation_metric: 'rouge_l',
          pass_threshold: 0.7,
        },
        {
          type: 'label_model',
          name: 'tone',
          model: 'label-judge',
          input: [{ role: 'user', content: 'Is "{{sample.output_text}}" a good answer to {{item.question}}?' }],
          labels: ['good', 'bad'],
          passing_labels: ['good'],
        },
        {
          type: 'score_model',
          name: 'score',
          model: 'score-judge',
          input: [{ role: 'user', content: 'Score "{{sample.output_text}}" against "{{item.answer}}".' }],
          pass_threshold: 0.2,
        },
      ],
    });
    expect(evaluation).toMatchObject({ object: 'eval', name: 'echo quality', metadata: { team: 'search' } });
    expect(evaluation.id).toMatch(/^eval_/);
    expect(evaluation.data_source_config).toEqual({
      type: 'custom',
      schema: expect.objectContaining({ properties: expect.objectContaining({ item: itemSchema }) }),
    });

    const run = await openai.evals.runs.create(evaluation.id, {
      name: 'echo run',
      data_source: {
        type: 'completions',
        model: 'svc-large-3',
        input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.question}}' }] },
        sampling_params: { temperature: 0.5, max_completion_tokens: 64 },
        source: {
          type: 'file_content',
          content: [
            { item: { question: 'the cat sat on the mat', answer: 'the cat sat on the mat' } },
            { item: { question: 'a quick brown fox', answer: 'a quick red fox' } },
          ],
        },
      },
    });
    expect(run).toMatchObject({ object: 'eval.run', status: 'queued', eval_id: evaluation.id, model: 'svc-large-3' });
    const done = await untilEnded(openai, evaluation.id, run.id);
    expect(done.status).toBe('completed');
    // Row 0 passes everything; row 1 fails the exact check and BLEU (no matching trigram).
    expect(done.result_counts).toEqual({ total: 2, passed: 1, failed: 1, errored: 0 });
    expect(done.per_testing_criteria_results).toEqual([
      { testing_criteria: 'exact', passed: 1, failed: 1 },
      { testing_criteria: 'fuzzy', passed: 2, failed: 0 },
      { testing_criteria: 'bleu', passed: 1, failed: 1 },
      { testing_criteria: 'rouge_l', passed: 2, failed: 0 },
      { testing_criteria: 'tone', passed: 2, failed: 0 },
      { testing_criteria: 'score', passed: 2, failed: 0 },
    ]);
    const usage = Object.fromEntries(done.per_model_usage.map((entry) => [entry.model_name, entry.invocation_count]));
    expect(usage).toEqual({ 'svc-large-3': 2, 'label-judge': 2, 'score-judge': 2 });

    const items = [];
    for await (const item of openai.evals.runs.outputItems.list(run.id, { eval_id: evaluation.id, limit: 1 }))
      items.push(item);
    expect(items.map((item) => item.datasource_item_id)).toEqual([0, 1]);
    const second = items[1]!;
    expect(second.status).toBe('fail');
    expect(second.sample.output).toEqual([{ role: 'assistant', content: 'a quick brown fox' }]);
    expect(second.sample.input).toEqual([{ role: 'user', content: 'a quick brown fox' }]);
    expect(second.sample.temperature).toBe(0.5);
    const scores = Object.fromEntries(second.results.map((result) => [result.name, [result.score, result.passed]]));
    // fuzzy: 2·LCS/(17+15) with LCS "a quick " + "r fox" = 13 → 0.8125; ROUGE-L: LCS a quick fox = 3 of 4 → 0.75.
    expect(scores).toEqual({
      exact: [0, false],
      fuzzy: [0.8125, true],
      bleu: [0, false],
      rouge_l: [0.75, true],
      tone: [1, true],
      score: [0.25, true],
    });
    const retrieved = await openai.evals.runs.outputItems.retrieve(second.id, {
      eval_id: evaluation.id,
      run_id: run.id,
    });
    expect(retrieved.results).toEqual(second.results);
    const failing = await openai.evals.runs.outputItems.list(run.id, { eval_id: evaluation.id, status: 'fail' });
    expect(failing.data.map((item) => item.id)).toEqual([second.id]);

    // Each sample and each judge's request was the member key's, billed like any request.
    const account = await json(await gateway.request('/account/usage', { key: null, headers: { 'x-api-key': key } }));
    const requests = Object.fromEntries(
      account.usage.by_model.map((entry: { key: string; requests: number }) => [entry.key, entry.requests]),
    );
    expect(requests).toMatchObject({ 'svc-large-3-2512': 2, 'label-judge': 2, 'score-judge': 2 });
    // The run reports what its model's requests were billed (the ledger's figure) and how long they took.
    const billed = account.usage.by_model.find((entry: { key: string }) => entry.key === 'svc-large-3-2512').cost;
    // Switchyard's additions to OpenAI's per_model_usage, which the SDK's type does not name.
    const sampled = done.per_model_usage.find((entry) => entry.model_name === 'svc-large-3') as unknown as {
      cost: number;
      total_latency_ms: number;
    };
    expect(billed).toBeGreaterThan(0);
    expect(sampled.cost).toBeCloseTo(billed, 9);
    expect(sampled.total_latency_ms).toBeGreaterThan(0);

    // Another member key sees none of it.
    const other = client(await memberKey());
    await expect(other.evals.retrieve(evaluation.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.evals.runs.retrieve(run.id, { eval_id: evaluation.id })).rejects.toMatchObject({ status: 404 });
    expect((await other.evals.list()).data).toEqual([]);
  });

  it('runs a jsonl source of an uploaded file: given samples graded, cosine on the built-in embedding model', async () => {
    const openai = client();
    const evaluation = await openai.evals.create({
      name: 'given answers',
      data_source_config: { type: 'custom', item_schema: itemSchema, include_sample_schema: true },
      testing_criteria: [
        {
          type: 'string_check',
          name: 'mentions',
          input: '{{sample.output_text}}',
          reference: 'Paris',
          operation: 'ilike',
        },
        {
          type: 'text_similarity',
          name: 'cosine',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          evaluation_metric: 'cosine',
          pass_threshold: 0.99,
        },
      ],
    });
    const lines = [
      {
        item: { question: 'capital of France?', answer: 'Paris is the capital.' },
        sample: { output_text: 'Paris is the capital.' },
      },
      { item: { question: 'capital of Italy?', answer: 'Rome' }, sample: { output_text: 'paris, surely' } },
    ];
    const file = await openai.files.create({
      file: new File([lines.map((line) => JSON.stringify(line)).join('\n')], 'rows.jsonl'),
      purpose: 'evals',
    });
    const run = await openai.evals.runs.create(evaluation.id, {
      data_source: { type: 'jsonl', source: { type: 'file_id', id: file.id } },
    });
    const done = await untilEnded(openai, evaluation.id, run.id);
    const items = (await openai.evals.runs.outputItems.list(run.id, { eval_id: evaluation.id })).data;
    expect(items.map((item) => item.sample.error)).toEqual([null, null]);
    expect(done.result_counts).toEqual({ total: 2, passed: 1, failed: 1, errored: 0 });
    const [same, different] = items.map((item) => item.results.find((result) => result.name === 'cosine')!);
    expect(same!.score).toBeCloseTo(1, 5);
    expect(different!.score).toBeLessThan(0.99);
    expect(items[1]!.results.find((result) => result.name === 'mentions')).toMatchObject({ passed: true, score: 1 });
    expect(upstream.requests).toEqual([]);
  });

  it('cancels a running run: it is canceled, rows in flight are dropped, and it stays so', async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    const openai = client();
    const evaluation = await openai.evals.create({
      data_source_config: { type: 'custom', item_schema: itemSchema },
      testing_criteria: [
        {
          type: 'string_check',
          name: 'exact',
          input: '{{sample.output_text}}',
          reference: '{{item.answer}}',
          operation: 'eq',
        },
      ],
    });
    const run = await openai.evals.runs.create(evaluation.id, {
      data_source: {
        type: 'completions',
        model: 'svc-large-3',
        input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.question}}' }] },
        source: {
          type: 'file_content',
          content: Array.from({ length: 20 }, (_, index) => ({
            item: { question: `q ${index}`, answer: `q ${index}` },
          })),
        },
      },
    });
    await expect.poll(() => upstream.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const canceled = await openai.evals.runs.cancel(run.id, { eval_id: evaluation.id });
    expect(canceled.status).toBe('canceled');
    await expect(openai.evals.runs.cancel(run.id, { eval_id: evaluation.id })).rejects.toMatchObject({ status: 409 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await openai.evals.runs.retrieve(run.id, { eval_id: evaluation.id });
    expect(after.status).toBe('canceled');
    expect(after.result_counts.passed + after.result_counts.failed).toBeLessThan(20);
    const listed = await openai.evals.runs.list(evaluation.id);
    expect(listed.data.map((entry) => entry.id)).toEqual([run.id]);
    expect(await openai.evals.runs.delete(run.id, { eval_id: evaluation.id })).toMatchObject({
      deleted: true,
      run_id: run.id,
    });
    await expect(openai.evals.runs.retrieve(run.id, { eval_id: evaluation.id })).rejects.toMatchObject({ status: 404 });
  });

  it('updates, lists with cursors and deletes evals', async () => {
    const openai = client(await memberKey());
    const made = [];
    for (const name of ['one', 'two', 'three'])
      made.push(
        await openai.evals.create({
          name,
          data_source_config: { type: 'custom', item_schema: itemSchema },
          testing_criteria: [
            { type: 'string_check', name: 'c', input: '{{item.question}}', reference: 'x', operation: 'ne' },
          ],
        }),
      );
    const first = await openai.evals.list({ limit: 2 });
    expect(first.data.map((entry) => entry.name)).toEqual(['one', 'two']);
    expect(first.has_more).toBe(true);
    const all = [];
    for await (const entry of openai.evals.list({ limit: 2, order: 'desc' })) all.push(entry.name);
    expect(all).toEqual(['three', 'two', 'one']);
    const updated = await openai.evals.update(made[0]!.id, { name: 'renamed', metadata: { v: '2' } });
    expect(updated).toMatchObject({ name: 'renamed', metadata: { v: '2' } });
    expect(await openai.evals.delete(made[0]!.id)).toMatchObject({ deleted: true, eval_id: made[0]!.id });
    await expect(openai.evals.retrieve(made[0]!.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('bad input is a 422 naming the field, before anything runs or is billed', () => {
  const create = (body: Record<string, unknown>) => gateway.request('/v1/evals', { method: 'POST', json: body });
  const criterion = {
    type: 'string_check',
    name: 'c',
    input: '{{sample.output_text}}',
    reference: '{{item.answer}}',
    operation: 'eq',
  };
  const config = { type: 'custom', item_schema: itemSchema };

  it('refuses python graders, bad operations and judges no route serves', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'python', name: 'p', source: 'def grade(s, i): return 1' }, 'testing_criteria[0].type'],
      [{ ...criterion, operation: 'regex' }, 'testing_criteria[0].operation'],
      [
        { ...criterion, type: 'text_similarity', evaluation_metric: 'bleurt', pass_threshold: 1 },
        'testing_criteria[0].evaluation_metric',
      ],
      [
        {
          type: 'label_model',
          name: 'l',
          model: 'no-such-model',
          input: [{ role: 'user', content: 'x' }],
          labels: ['a'],
          passing_labels: ['a'],
        },
        'testing_criteria[0].model',
      ],
      [
        {
          type: 'label_model',
          name: 'l',
          model: 'label-judge',
          input: [{ role: 'user', content: 'x' }],
          labels: ['a'],
          passing_labels: ['b'],
        },
        'testing_criteria[0].passing_labels',
      ],
      [{ ...criterion, input: '{{output}}' }, 'testing_criteria[0].input'],
    ];
    for (const [grader, param] of cases) {
      const response = await create({ data_source_config: config, testing_criteria: [grader] });
      expect(response.status, param).toBe(422);
      expect((await json(response)).param).toBe(param);
    }
    const logs = await create({ data_source_config: { type: 'logs' }, testing_criteria: [criterion] });
    expect((await json(logs)).param).toBe('data_source_config.type');
  });

  it('refuses a row not matching the item schema, a template naming a missing field and a model no route serves', async () => {
    const evaluation = await json(await create({ data_source_config: config, testing_criteria: [criterion] }));
    const runs = (body: Record<string, unknown>) =>
      gateway.request(`/v1/evals/${evaluation.id}/runs`, { method: 'POST', json: { data_source: body } });
    const completions = (overrides: Record<string, unknown>) => ({
      type: 'completions',
      model: 'svc-large-3',
      input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.question}}' }] },
      source: { type: 'file_content', content: [{ item: { question: 'q', answer: 'a' } }] },
      ...overrides,
    });
    const cases: [Record<string, unknown>, string][] = [
      [
        completions({
          source: {
            type: 'file_content',
            content: [{ item: { question: 'q', answer: 'a' } }, { item: { question: 3 } }],
          },
        }),
        'data_source.source.content[1].item',
      ],
      [
        completions({
          input_messages: { type: 'template', template: [{ role: 'user', content: '{{item.missing}}' }] },
        }),
        'data_source.input_messages.template[0].content',
      ],
      [completions({ model: 'no-such-model' }), 'data_source.model'],
      [completions({ sampling_params: { temperature: 9 } }), 'data_source.sampling_params.temperature'],
      [{ type: 'responses', source: { type: 'file_content', content: [] } }, 'data_source.source.content'],
      [
        { type: 'jsonl', source: { type: 'file_content', content: [{ item: { question: 'q', answer: 'a' } }] } },
        'data_source.source.content[0].sample',
      ],
    ];
    for (const [dataSource, param] of cases) {
      const response = await runs(dataSource);
      expect(response.status, param).toBe(422);
      expect((await json(response)).param, JSON.stringify(dataSource)).toBe(param);
    }
    expect(upstream.requests).toEqual([]);
    const listed = await json(await gateway.request(`/v1/evals/${evaluation.id}/runs`));
    expect(listed.data).toEqual([]);
  });
});
