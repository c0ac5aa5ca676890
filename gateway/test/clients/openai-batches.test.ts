import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new OpenAI({ apiKey: ADMIN_KEY, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });

const line = (customId: string, model: string, text: string) =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model, messages: [{ role: 'user', content: text }] },
  });

async function upload(lines: string[]) {
  return client().files.create({
    file: await toFile(Buffer.from(lines.join('\n') + '\n'), 'batch.jsonl'),
    purpose: 'batch',
  });
}

async function waitFor(id: string, done: (status: string) => boolean) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const batch = await client().batches.retrieve(id);
    if (done(batch.status)) return batch;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`batch ${id} never reached the expected status`);
}

describe('the openai SDK on /v1/batches, end to end', () => {
  it('request_counts, output_file_id and error_file_id with their JSONL', async () => {
    // The bad line names a served model but a temperature out of range: it fails when it runs.
    const bad = JSON.stringify({
      custom_id: 'bad',
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'svc-large-3', messages: [{ role: 'user', content: 'x' }], temperature: 7 },
    });
    const input = await upload([line('good', 'svc-large-3', 'batched answer'), bad]);
    const created = await client().batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect(created.object).toBe('batch');
    const batch = await waitFor(created.id, (status) => status === 'completed' || status === 'failed');
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    const output = (await (await client().files.content(batch.output_file_id!)).text())
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({
      custom_id: 'good',
      response: { status_code: 200, body: { choices: [{ message: { content: 'batched answer' } }] } },
    });
    const errors = (await (await client().files.content(batch.error_file_id!)).text())
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(errors[0]).toMatchObject({ custom_id: 'bad', response: { status_code: 422 } });
    const listed = await client().batches.list();
    expect(listed.data.map((entry) => entry.id)).toContain(created.id);
  });

  it('a batch file that is not valid JSONL is refused at upload; a model no route serves at creation', async () => {
    const broken = client().files.create({
      file: await toFile(
        Buffer.from(`${line('a', 'svc-large-3', 'x')}
{"custom_id": "b", "body": 
`),
        'batch.jsonl',
      ),
      purpose: 'batch',
    });
    await expect(broken).rejects.toMatchObject({ status: 422, error: { code: 'invalid_batch_file', param: 'file' } });
    await expect(broken).rejects.toThrow(/Line 2 of the batch file is not valid JSON/);
    const input = await upload([line('a', 'svc-large-3', 'x'), line('b', 'gpt-9-turbo', 'y')]);
    const created = client().batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    await expect(created).rejects.toMatchObject({
      status: 422,
      error: { code: 'model_not_found', param: 'input_file_id' },
    });
    await expect(created).rejects.toThrow(/Line 2 of the input file: The model "gpt-9-turbo" is not served/);
  });

  it('cancelling a running batch is cancelling while its line in flight is stopped, then cancelled; cancelling it again is a 409', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    try {
      const input = await upload(
        Array.from({ length: 6 }, (_, index) => line(`r${index}`, 'svc-large-3', `slow ${index}`)),
      );
      const created = await client().batches.create({
        input_file_id: input.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      });
      await waitFor(created.id, (status) => status === 'in_progress');
      const cancelled = await client().batches.cancel(created.id);
      expect(cancelled.status).toBe('cancelling');
      const settled = await waitFor(created.id, (status) => status === 'cancelled');
      expect(settled.cancelled_at).toEqual(expect.any(Number));
      await expect(client().batches.cancel(created.id)).rejects.toMatchObject({ status: 409 });
    } finally {
      stack.upstream.setBehaviour(null);
    }
  });
});
