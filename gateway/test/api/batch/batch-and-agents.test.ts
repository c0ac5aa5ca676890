import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, upstreamConfig } from '../../support/upstream-config.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: upstreamConfig(upstream) });
});

async function upload(lines: unknown[] | string): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'batch');
  const text = typeof lines === 'string' ? lines : lines.map((line) => JSON.stringify(line)).join('\n');
  form.set('file', new Blob([text], { type: 'application/jsonl' }), 'input.jsonl');
  const response = await gateway.request('/v1/files', { method: 'POST', body: form });
  expect(response.status).toBe(200);
  return (await json(response)).id;
}

const chatLine = (id: string, text: string) => ({
  custom_id: id,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model: 'svc-large-3', messages: [{ role: 'user', content: text }] },
});
const createBatch = (body: Record<string, unknown>) => gateway.request('/v1/batch', { method: 'POST', json: body });
const batchStatus = async (id: string) => (await json(await gateway.request(`/v1/batch/${id}`))).status;

describe('batches', () => {
  it('runs every request and writes an output file; counts and usage follow', async () => {
    // Line c names a served model but an invalid request: it fails when it runs, the others answer.
    const fileId = await upload([
      chatLine('a', 'first question'),
      chatLine('b', 'second question'),
      { custom_id: 'c', body: { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }], temperature: 7 } },
    ]);
    const created = await createBatch({
      input_file_id: fileId,
      endpoint: '/v1/chat/completions',
      metadata: { team: 'search' },
    });
    expect(created.status).toBe(200);
    const batch = await json(created);
    expect(batch).toMatchObject({
      object: 'batch',
      status: 'validating',
      input_file_id: fileId,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { team: 'search' },
    });
    expect(batch.id).toMatch(/^batch_/);
    expect(batch.created_at).toBeTypeOf('number');

    await expect.poll(() => batchStatus(batch.id), { timeout: 20_000 }).toBe('completed');
    const done = await json(await gateway.request(`/v1/batch/${batch.id}`));
    expect(done.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const output = (await (await gateway.request(`/v1/files/${done.output_file_id}/content`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(output.map((line) => line.custom_id)).toEqual(['a', 'b']);
    expect(output[0].response).toMatchObject({
      status_code: 200,
      body: { object: 'chat.completion', choices: [{ message: { content: 'first question' } }] },
    });
    const errors = (await (await gateway.request(`/v1/files/${done.error_file_id}/content`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(errors[0]).toMatchObject({ custom_id: 'c', response: { status_code: 422, body: { param: 'temperature' } } });

    const usage = await json(
      await gateway.request('/account/usage', {
        key: null,
        headers: { 'x-api-key': 'sk-sy-test-admin-key-0123456789abcdef' },
      }),
    );
    expect(usage.usage.by_model.find((entry: Json) => entry.key === 'svc-large-3-2512').requests).toBe(2);
    const list = await json(await gateway.request('/v1/batch?limit=5'));
    expect(list.data[0].id).toBe(batch.id);
  });

  it("cancels only an in_progress batch: SPEC's path answers cancelled with cancelled_at once its line in flight is stopped; 409 after", async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    const fileId = await upload(Array.from({ length: 6 }, (_, i) => chatLine(`r${i}`, `question ${i}`)));
    const batch = await json(await createBatch({ input_file_id: fileId, endpoint: '/v1/chat/completions' }));
    await expect.poll(() => batchStatus(batch.id), { timeout: 10_000 }).toBe('in_progress');
    const cancelled = await gateway.request(`/v1/batch/${batch.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const body = await json(cancelled);
    expect(body).toMatchObject({
      id: batch.id,
      object: 'batch',
      status: 'cancelled',
      cancelled_at: expect.any(Number),
    });
    expect(body.cancelled_at).toBeGreaterThanOrEqual(body.created_at);
    expect(body.request_counts.completed).toBeLessThan(6);
    const again = await gateway.request(`/v1/batch/${batch.id}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ type: 'conflict_error', code: 'batch_not_cancellable' });
    const settled = await json(await gateway.request(`/v1/batch/${batch.id}`));
    expect(settled).toMatchObject({ status: 'cancelled', cancelled_at: body.cancelled_at });
  });

  it("OpenAI's path answers cancelling while the line in flight is stopped, then the batch is cancelled with cancelled_at", async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    const fileId = await upload(Array.from({ length: 6 }, (_, i) => chatLine(`r${i}`, `question ${i}`)));
    const batch = await json(await createBatch({ input_file_id: fileId, endpoint: '/v1/chat/completions' }));
    await expect.poll(() => batchStatus(batch.id), { timeout: 10_000 }).toBe('in_progress');
    const cancelled = await gateway.request(`/v1/batches/${batch.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(await json(cancelled)).toMatchObject({
      id: batch.id,
      object: 'batch',
      status: 'cancelling',
      cancelled_at: null,
    });
    await expect.poll(() => batchStatus(batch.id), { timeout: 10_000 }).toBe('cancelled');
    const settled = await json(await gateway.request(`/v1/batch/${batch.id}`));
    expect(settled.cancelled_at).toBeTypeOf('number');
    expect(settled.request_counts.completed).toBeLessThan(6);
  });

  it('refuses a broken batch file at upload, naming the first bad line and why', async () => {
    const cases: [string, RegExp][] = [
      [
        '{"custom_id":"a","body":{"messages":[]}}\nnot json\n{"custom_id":"b","body":{}}',
        /^Line 2 of the batch file is not valid JSON/,
      ],
      [
        '{"custom_id":"a","body":{}}\n{"custom_id":"a","body":{}}',
        /^Line 2 of the batch file repeats the 'custom_id' "a"/,
      ],
      ['{"custom_id":"a","body":{}}\n\n{"body":{}}', /^Line 3 of the batch file has no 'custom_id'/],
      [
        '{"custom_id":"a","method":"GET","url":"/v1/chat/completions","body":{}}',
        /^Line 1 of the batch file has a 'method' other than POST/,
      ],
      ['{"custom_id":"a","url":"/v1/shutdown","body":{}}', /^Line 1 of the batch file has a 'url' that is not one of/],
      [
        '{"custom_id":"a","url":"/v1/chat/completions","body":{}}\n{"custom_id":"b","url":"/v1/embeddings","body":{}}',
        /^Line 2 of the batch file has the 'url' \/v1\/embeddings, but line 1 has \/v1\/chat\/completions/,
      ],
      ['{"custom_id":"a","body":"hello"}', /^Line 1 of the batch file has no 'body' object/],
      ['[1, 2]', /^Line 1 of the batch file is not a JSON object/],
      ['\n\n', /holds no requests/],
    ];
    for (const [text, message] of cases) {
      const form = new FormData();
      form.set('purpose', 'batch');
      form.set('file', new Blob([text], { type: 'application/jsonl' }), 'input.jsonl');
      const response = await gateway.request('/v1/files', { method: 'POST', body: form });
      expect(response.status, text).toBe(422);
      expect(await json(response)).toMatchObject({
        object: 'error',
        type: 'invalid_request_error',
        code: 'invalid_batch_file',
        param: 'file',
        message: expect.stringMatching(message),
      });
    }
    // Nothing was stored.
    expect((await json(await gateway.request('/v1/files'))).data).toEqual([]);
  });

  it('checks the model and endpoint at creation: a model no route serves is a 422 naming the line, not a failed line later', async () => {
    const fileId = await upload([
      chatLine('a', 'fine'),
      { custom_id: 'b', body: { model: 'nope', messages: [{ role: 'user', content: 'x' }] } },
    ]);
    const unknown = await createBatch({ input_file_id: fileId, endpoint: '/v1/chat/completions' });
    expect(unknown.status).toBe(422);
    expect(await json(unknown)).toMatchObject({
      object: 'error',
      code: 'model_not_found',
      param: 'input_file_id',
      message: expect.stringMatching(
        /^Line 2 of the input file: The model "nope" is not served by this gateway\. Models that serve chat here: svc-large-3-2512/,
      ),
    });
    // The lines are for chat; the batch says embeddings.
    const mismatch = await createBatch({
      input_file_id: await upload([{ ...chatLine('a', 'x'), url: '/v1/chat/completions' }]),
      endpoint: '/v1/embeddings',
    });
    expect(mismatch.status).toBe(422);
    expect((await json(mismatch)).param).toBe('endpoint');
    // No route generates images here.
    const unserved = await createBatch({
      input_file_id: await upload([{ custom_id: 'a', body: { prompt: 'a cat' } }]),
      endpoint: '/v1/vision/generate',
    });
    expect(unserved.status).toBe(422);
    expect(await json(unserved)).toMatchObject({ code: 'capability_not_served', param: 'endpoint' });
    expect((await json(await gateway.request('/v1/batch'))).data).toEqual([]);

    expect(
      (await json(await createBatch({ input_file_id: 'file-missing', endpoint: '/v1/chat/completions' }))).code,
    ).toBe('file_not_found');
    expect((await json(await createBatch({ input_file_id: fileId, endpoint: '/v1/shutdown' }))).param).toBe('endpoint');
    expect((await json(await createBatch({ endpoint: '/v1/chat/completions' }))).param).toBe('input_file_id');
    expect((await gateway.request('/v1/batch/batch_nope')).status).toBe(404);
  });

  it('lists files and batches made within the same second newest first, and pages through them in that order', async () => {
    const files: string[] = [];
    for (let i = 0; i < 5; i += 1) files.push(await upload([chatLine(`f${i}`, `file ${i}`)]));
    const batches: string[] = [];
    for (const fileId of files.slice(0, 3))
      batches.push((await json(await createBatch({ input_file_id: fileId, endpoint: '/v1/chat/completions' }))).id);

    const listedFiles = (await json(await gateway.request('/v1/files?purpose=batch'))).data.map(
      (file: Json) => file.id,
    );
    expect(listedFiles).toEqual([...files].reverse());
    const firstPage = await json(await gateway.request('/v1/batch?limit=2'));
    const secondPage = await json(await gateway.request(`/v1/batch?limit=2&after=${firstPage.data.at(-1).id}`));
    expect([...firstPage.data, ...secondPage.data].map((batch: Json) => batch.id)).toEqual([...batches].reverse());
  });

  it('resumes an unfinished batch after a restart', async () => {
    upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 300 }, path: '/v1/chat/completions' });
    const fileId = await upload(Array.from({ length: 4 }, (_, i) => chatLine(`r${i}`, `item ${i}`)));
    const batch = await json(await createBatch({ input_file_id: fileId, endpoint: '/v1/chat/completions' }));
    await expect
      .poll(async () => (await json(await gateway.request(`/v1/batch/${batch.id}`))).request_counts.completed, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    const dataDir = gateway.dataDir;
    await gateway.stop();
    upstream.setBehaviour(null);
    gateway = await useGateway({ dataDir, config: upstreamConfig(upstream) });
    await expect.poll(() => batchStatus(batch.id), { timeout: 20_000 }).toBe('completed');
    const done = await json(await gateway.request(`/v1/batch/${batch.id}`));
    expect(done.request_counts).toEqual({ total: 4, completed: 4, failed: 0 });
    const output = (await (await gateway.request(`/v1/files/${done.output_file_id}/content`)).text())
      .trim()
      .split('\n');
    expect(output.map((line) => (JSON.parse(line) as Json).custom_id)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });
});

describe('agents', () => {
  it('creates, lists, updates and deletes an agent', async () => {
    const created = await gateway.request('/v1/agents', {
      method: 'POST',
      json: {
        name: 'Support bot',
        model: 'svc-large-3',
        instructions: 'Answer briefly.',
        tools: [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object' } } }],
      },
    });
    expect(created.status).toBe(200);
    const agent = await json(created);
    expect(agent).toMatchObject({
      object: 'agent',
      name: 'Support bot',
      model: 'svc-large-3',
      instructions: 'Answer briefly.',
      created: expect.any(Number),
    });
    expect(agent.id).toMatch(/^ag_/);
    expect((await json(await gateway.request('/v1/agents'))).data.map((entry: Json) => entry.id)).toContain(agent.id);
    const patched = await json(
      await gateway.request(`/v1/agents/${agent.id}`, { method: 'PATCH', json: { name: 'Helper' } }),
    );
    expect(patched.name).toBe('Helper');
    expect((await gateway.request(`/v1/agents/${agent.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await gateway.request(`/v1/agents/${agent.id}`)).status).toBe(404);
  });

  it('validates the model and tools', async () => {
    const unknownModel = await gateway.request('/v1/agents', { method: 'POST', json: { name: 'x', model: 'nope' } });
    expect(unknownModel.status).toBe(404);
    const badTool = await gateway.request('/v1/agents', {
      method: 'POST',
      json: { name: 'x', model: 'svc-large-3', tools: [{ type: 'teleport' }] },
    });
    expect(badTool.status).toBe(422);
    // A built-in tool is refused, not stored: nothing here runs it.
    const builtIn = await gateway.request('/v1/agents', {
      method: 'POST',
      json: {
        name: 'x',
        model: 'svc-large-3',
        tools: [{ type: 'function', function: { name: 'ping' } }, { type: 'web_search' }],
      },
    });
    expect(builtIn.status).toBe(422);
    expect(await json(builtIn)).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      code: 'unsupported_tool',
      param: 'tools[1].type',
      message: expect.stringMatching(/web_search/),
    });
    expect((await gateway.request('/v1/agents', { method: 'POST', json: { model: 'svc-large-3' } })).status).toBe(422);
  });

  it("checks an agent's completion_args with chat's ranges on create, update and each conversation turn, naming the field", async () => {
    const chat = await json(
      await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }], temperature: 3 },
      }),
    );
    expect(chat).toMatchObject({ code: 'invalid_value', param: 'temperature' });
    const outOfRange = {
      temperature: 3,
      top_p: 1.5,
      max_tokens: 0,
      presence_penalty: -2.5,
      frequency_penalty: 2.5,
      random_seed: 0.5,
    };
    for (const [field, value] of Object.entries(outOfRange)) {
      const response = await gateway.request('/v1/agents', {
        method: 'POST',
        json: { name: 'Hot', model: 'svc-large-3', completion_args: { [field]: value } },
      });
      const body = await json(response);
      expect({ field, status: response.status, body }).toMatchObject({
        field,
        status: 422,
        body: {
          object: 'error',
          type: 'invalid_request_error',
          code: 'invalid_value',
          param: `completion_args.${field}`,
        },
      });
      expect(body.message).toContain(`'completion_args.${field}'`);
    }
    expect(chat.message.replace("'temperature'", "'completion_args.temperature'")).toBe(
      (
        await json(
          await gateway.request('/v1/agents', {
            method: 'POST',
            json: { name: 'Hot', model: 'svc-large-3', completion_args: { temperature: 3 } },
          }),
        )
      ).message,
    );
    expect((await json(await gateway.request('/v1/agents'))).data.map((agent: Json) => agent.name)).not.toContain(
      'Hot',
    );

    const agent = await json(
      await gateway.request('/v1/agents', {
        method: 'POST',
        json: { name: 'Calm', model: 'svc-large-3', completion_args: { temperature: 0.3, max_tokens: 40 } },
      }),
    );
    expect(agent.completion_args).toEqual({ temperature: 0.3, max_tokens: 40 });
    const badUpdate = await gateway.request(`/v1/agents/${agent.id}`, {
      method: 'PATCH',
      json: { completion_args: { top_p: -1 } },
    });
    expect([badUpdate.status, (await json(badUpdate)).param]).toEqual([422, 'completion_args.top_p']);
    expect(await json(await gateway.request(`/v1/agents/${agent.id}`))).toMatchObject({
      version: 0,
      completion_args: { temperature: 0.3, max_tokens: 40 },
    });
    const badTurn = await gateway.request('/v1/conversations', {
      method: 'POST',
      json: { agent_id: agent.id, inputs: 'hi', completion_args: { frequency_penalty: 9 } },
    });
    expect([badTurn.status, (await json(badTurn)).param]).toEqual([422, 'completion_args.frequency_penalty']);

    // The agent's arguments are used, under what a request or turn gives.
    await gateway.request('/v1/agents/completions', {
      method: 'POST',
      json: { agent_id: agent.id, messages: [{ role: 'user', content: 'x' }], max_tokens: 5 },
    });
    expect(upstream.requests.at(-1)!.body).toMatchObject({ temperature: 0.3, max_tokens: 5 });
    await gateway.request('/v1/conversations', {
      method: 'POST',
      json: { agent_id: agent.id, inputs: 'hi', completion_args: { temperature: 0.9 } },
    });
    expect(upstream.requests.at(-1)!.body).toMatchObject({ temperature: 0.9, max_tokens: 40 });
  });

  it('runs an agent: its instructions become the system message and its function tools are offered', async () => {
    const agent = await json(
      await gateway.request('/v1/agents', {
        method: 'POST',
        json: {
          name: 'Echo',
          model: 'svc-large-3',
          instructions: 'Be an echo.',
          tools: [{ type: 'function', function: { name: 'ping' } }],
        },
      }),
    );
    const response = await gateway.request('/v1/agents/completions', {
      method: 'POST',
      json: { agent_id: agent.id, messages: [{ role: 'user', content: 'hello agent' }] },
    });
    expect(response.status).toBe(200);
    expect((await json(response)).choices[0].message.content).toBe('hello agent');
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be an echo.' });
    expect(sent.tools.map((tool: Json) => tool.function.name)).toEqual(['ping']);
    expect(
      (
        await gateway.request('/v1/agents/completions', {
          method: 'POST',
          json: { agent_id: 'ag_nope', messages: [{ role: 'user', content: 'x' }] },
        })
      ).status,
    ).toBe(404);
  });
});
