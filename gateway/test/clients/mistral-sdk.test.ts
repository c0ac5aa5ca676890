import { Mistral } from '@mistralai/mistralai';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { makeWav } from '../support/wav.js';
import { makeTextPdf } from '../support/draw-text.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: stack.gateway.url });
const FINE_TUNED = 'ft:svc-large-3-2512:acme:7e77';


const jsonl = (...lines: unknown[]): Uint8Array => new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');

async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function waitForJob(jobId: string, done: (status: string) => boolean) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const job = await client().batch.jobs.get({ jobId });
    if (done(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} never reached the expected status`);
}

describe('the official @mistralai/mistralai SDK, unchanged', () => {
  it('files: upload, list, retrieve, download, delete', async () => {
    const uploaded = await client().files.upload({ file: { fileName: 'input.jsonl', content: jsonl({ custom_id: 'a', body: { messages: [{ role: 'user', content: 'hi' }] } }) }, purpose: 'batch' });
    expect(uploaded).toMatchObject({ filename: 'input.jsonl', purpose: 'batch', sampleType: 'batch_request', source: 'upload' });
    expect(uploaded.sizeBytes).toBeGreaterThan(0);
    const listed = await client().files.list({});
    expect(listed.data.map((file) => file.id)).toContain(uploaded.id);
    const fetched = await client().files.retrieve({ fileId: uploaded.id });
    expect(fetched).toMatchObject({ id: uploaded.id, deleted: false });
    expect(JSON.parse((await textOf(await client().files.download({ fileId: uploaded.id }))).trim())).toMatchObject({ custom_id: 'a' });
    expect(await client().files.delete({ fileId: uploaded.id })).toMatchObject({ id: uploaded.id, deleted: true });
    await expect(client().files.retrieve({ fileId: uploaded.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('batch jobs: create with a job-level model, get until SUCCESS, list, read the output file', async () => {
    const input = await client().files.upload({
      file: { fileName: 'jobs.jsonl', content: jsonl({ custom_id: 'one', body: { messages: [{ role: 'user', content: 'first answer' }] } }, { custom_id: 'two', body: { messages: [{ role: 'user', content: 'second answer' }] } }) },
      purpose: 'batch',
    });
    const job = await client().batch.jobs.create({ inputFiles: [input.id], endpoint: '/v1/chat/completions', model: 'svc-large-3', metadata: { run: 'sdk' } });
    expect(job).toMatchObject({ object: 'batch', endpoint: '/v1/chat/completions', status: 'QUEUED', metadata: { run: 'sdk' } });
    const finished = await waitForJob(job.id, (status) => status === 'SUCCESS' || status === 'FAILED');
    expect(finished).toMatchObject({ status: 'SUCCESS', totalRequests: 2, succeededRequests: 2, failedRequests: 0, completedRequests: 2 });
    expect(finished.outputFile).toEqual(expect.any(String));
    const output = (await textOf(await client().files.download({ fileId: finished.outputFile! }))).trim().split('\n').map((line) => JSON.parse(line));
    expect(output.map((line) => line.custom_id).sort()).toEqual(['one', 'two']);
    expect(output.find((line) => line.custom_id === 'one').response.body.choices[0].message.content).toBe('first answer');

    const list = await client().batch.jobs.list({});
    expect(list.total).toBeGreaterThan(0);
    expect(list.data?.map((entry) => entry.id)).toContain(job.id);
    // The SPEC and OpenAI shapes stay on their own paths.
    const spec = await stack.gateway.request(`/v1/batch/${job.id}`);
    expect(await spec.json()).toMatchObject({ id: job.id, status: 'completed', request_counts: { total: 2 } });
  });

  it('batch jobs: inline requests, and cancelling a running job', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    try {
      const job = await client().batch.jobs.create({
        endpoint: '/v1/chat/completions',
        model: 'svc-large-3',
        requests: Array.from({ length: 6 }, (_, index) => ({ customId: `r${index}`, body: { messages: [{ role: 'user', content: `slow ${index}` }] } })),
      });
      await waitForJob(job.id, (status) => status === 'RUNNING');
      const cancelled = await client().batch.jobs.cancel({ jobId: job.id });
      expect(cancelled.status).toBe('CANCELLATION_REQUESTED');
      await waitForJob(job.id, (status) => status === 'CANCELLED');
      expect((await client().batch.jobs.get({ jobId: job.id })).totalRequests).toBe(6);
    } finally {
      stack.upstream.setBehaviour(null);
    }
    await expect(client().batch.jobs.get({ jobId: 'batch_missing' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('models: list and retrieve as base and fine-tuned cards; update, archive, unarchive on the fine-tuning paths', async () => {
    const list = await client().models.list();
    const base = list.data?.find((model) => 'id' in model && model.id === 'svc-large-3-2512');
    expect(base).toMatchObject({ type: 'base', capabilities: { completionChat: true, functionCalling: true } });
    const tuned = await client().models.retrieve({ modelId: FINE_TUNED });
    expect(tuned).toMatchObject({ type: 'fine-tuned', root: 'my-model-ft', archived: false });

    const updated = await client().models.update({ modelId: FINE_TUNED, updateModelRequest: { name: 'Acme tuned', description: 'for tests' } });
    expect(updated).toMatchObject({ id: FINE_TUNED, name: 'Acme tuned', description: 'for tests' });
    expect(await client().models.archive({ modelId: FINE_TUNED })).toMatchObject({ id: FINE_TUNED, archived: true });
    expect(await client().models.retrieve({ modelId: FINE_TUNED })).toMatchObject({ type: 'fine-tuned', archived: true });
    expect(await client().models.unarchive({ modelId: FINE_TUNED })).toMatchObject({ archived: false });
    await expect(client().models.update({ modelId: 'svc-large-3-2512', updateModelRequest: { name: 'x' } })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('fim.complete: prompt and suffix to a backend with FIM; a 400 naming the models that can elsewhere', async () => {
    const answer = await client().fim.complete({ model: 'codestral-model', prompt: 'def add(a, b):', suffix: 'return c' });
    expect(answer.choices?.at(0)?.message?.content).toBe('def add(a, b):');
    const sent = stack.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/fim/completions');
    expect(sent?.body).toMatchObject({ model: 'codestral-upstream', prompt: 'def add(a, b):', suffix: 'return c' });
    const refused = client().fim.complete({ model: 'svc-large-3', prompt: 'x = ', suffix: ';' });
    await expect(refused).rejects.toMatchObject({ statusCode: 400 });
    await expect(refused).rejects.toThrow(/codestral-model/);
  });

  it('audio.transcriptions.complete carries language and usage', async () => {
    const result = await client().audio.transcriptions.complete({ model: 'whisper-model', file: { fileName: 'clip.wav', content: new Uint8Array(makeWav(1)) }, language: 'en' });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.language).toBe('en');
    // The upstream's own duration (the fake reports 2 s) wins over the WAV header's.
    expect(result.usage).toMatchObject({ promptAudioSeconds: 2, totalTokens: 0 });
  });

  it('classifiers: a clear error saying nothing here serves them', async () => {
    const moderation = client().classifiers.moderate({ model: 'svc-large-3', inputs: ['hello'] });
    await expect(moderation).rejects.toMatchObject({ statusCode: 404 });
    await expect(moderation).rejects.toThrow(/no moderation or classification backend/);
    await expect(client().classifiers.classify({ model: 'svc-large-3', inputs: ['hello'] })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('chat.complete with a document_url part is answered from the document', async () => {
    const { pdf } = await makeTextPdf([{ lines: [{ text: 'The invoice total is 4210 euros.', x: 50, y: 100, size: 14 }, { text: 'Payment is due in March.', x: 50, y: 130, size: 14 }] }]);
    const answer = await client().chat.complete({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the invoice total?' }, { type: 'document_url', documentUrl: `data:application/pdf;base64,${pdf.toString('base64')}` }] }],
    });
    const content = answer.choices[0]?.message?.content;
    expect(typeof content === 'string' ? content : JSON.stringify(content)).toMatch(/4210/);
  }, 60_000);
});
