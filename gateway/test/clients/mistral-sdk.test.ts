import { Mistral } from '@mistralai/mistralai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect } from '../support/collect.js';
import { ADMIN_KEY } from '../support/start-gateway.js';
import { makeWav } from '../support/wav.js';
import { makeTextPdf } from '../support/draw-text.js';
import { useClientsStack } from './responses-config.js';

const stack = useClientsStack();
const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: stack.gateway.url });
const FINE_TUNED = 'ft:svc-large-3-2512:acme:7e77';

const jsonl = (...lines: unknown[]): Uint8Array =>
  new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');

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
  it('chat.complete and chat.stream send presencePenalty and frequencyPenalty, and the upstream receives them', async () => {
    const penalties = { presencePenalty: 1.5, frequencyPenalty: -2 };
    await client().chat.complete({ model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }], ...penalties });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      presence_penalty: 1.5,
      frequency_penalty: -2,
      stream: false,
    });
    await collect(
      await client().chat.stream({ model: 'svc-large-3', messages: [{ role: 'user', content: 'hi' }], ...penalties }),
    );
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      presence_penalty: 1.5,
      frequency_penalty: -2,
      stream: true,
    });
  });

  it('files: upload, list, retrieve, download, delete', async () => {
    const uploaded = await client().files.upload({
      file: {
        fileName: 'input.jsonl',
        content: jsonl({ custom_id: 'a', body: { messages: [{ role: 'user', content: 'hi' }] } }),
      },
      purpose: 'batch',
    });
    expect(uploaded).toMatchObject({
      filename: 'input.jsonl',
      purpose: 'batch',
      sampleType: 'batch_request',
      source: 'upload',
    });
    expect(uploaded.sizeBytes).toBeGreaterThan(0);
    const listed = await client().files.list({});
    expect(listed.data.map((file) => file.id)).toContain(uploaded.id);
    const fetched = await client().files.retrieve({ fileId: uploaded.id });
    expect(fetched).toMatchObject({ id: uploaded.id, deleted: false });
    expect(JSON.parse((await textOf(await client().files.download({ fileId: uploaded.id }))).trim())).toMatchObject({
      custom_id: 'a',
    });
    expect(await client().files.delete({ fileId: uploaded.id })).toMatchObject({ id: uploaded.id, deleted: true });
    await expect(client().files.retrieve({ fileId: uploaded.id })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('files.getSignedUrl: a link that downloads without a key, only for files the key can see, and stops when forged', async () => {
    const uploaded = await client().files.upload({
      file: { fileName: 'notes.txt', content: new TextEncoder().encode('signed link body') },
      purpose: 'ocr',
    });
    const { url } = await client().files.getSignedUrl({ fileId: uploaded.id, expiry: 1 });
    expect(url.startsWith(`${stack.gateway.url}/v1/files/${uploaded.id}/`)).toBe(true);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('signed link body');
    expect(download.headers.get('content-disposition')).toMatch(/attachment/);

    const signed = new URL(url);
    const expires = Number(signed.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(3_500_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(3_600_000);
    signed.searchParams.set('expires', String(expires + 3600));
    const stretched = await fetch(signed);
    expect(stretched.status).toBe(403);
    expect(await stretched.json()).toMatchObject({ code: 'invalid_file_link', type: 'permission_error' });
    const otherFile = new URL(url.replace(uploaded.id, 'file-other'));
    expect((await fetch(otherFile)).status).toBe(403);

    await expect(client().files.getSignedUrl({ fileId: 'file-missing' })).rejects.toMatchObject({ statusCode: 404 });
    await client().files.delete({ fileId: uploaded.id });
    expect((await fetch(url)).status).toBe(404);
  });

  it("files.getSignedUrl is owner-scoped: a Member's link opens its own file, never another key's, and dies with the key", async () => {
    const created = (await (
      await stack.gateway.request('/account/keys', { method: 'POST', json: { name: 'signer', role: 'member' } })
    ).json()) as { key: string; id: string };
    const member = new Mistral({ apiKey: created.key, serverURL: stack.gateway.url });
    const theirs = await member.files.upload({
      file: { fileName: 'member.txt', content: new TextEncoder().encode('member bytes') },
      purpose: 'ocr',
    });
    const ownersFile = await client().files.upload({
      file: { fileName: 'owner.txt', content: new TextEncoder().encode('owner bytes') },
      purpose: 'ocr',
    });
    await expect(member.files.getSignedUrl({ fileId: ownersFile.id })).rejects.toMatchObject({ statusCode: 404 });

    const { url } = await member.files.getSignedUrl({ fileId: theirs.id });
    expect(await (await fetch(url)).text()).toBe('member bytes');
    // The member's signature does not open the Owner's file, even with the id swapped in.
    expect((await fetch(url.replace(theirs.id, ownersFile.id))).status).toBe(403);

    expect((await stack.gateway.request(`/account/keys/${created.id}`, { method: 'DELETE' })).status).toBe(200);
    const revoked = await fetch(url);
    expect(revoked.status).toBe(403);
    expect(await revoked.json()).toMatchObject({ code: 'invalid_file_link' });
  });

  it('batch.jobs.delete: refused with a clear 422 (jobs are the record of what ran); 404 for a job that does not exist', async () => {
    const job = await client().batch.jobs.create({
      endpoint: '/v1/chat/completions',
      model: 'svc-large-3',
      requests: [{ customId: 'only', body: { messages: [{ role: 'user', content: 'kept' }] } }],
    });
    const refused = client().batch.jobs.delete({ jobId: job.id });
    await expect(refused).rejects.toMatchObject({ statusCode: 422 });
    await expect(refused).rejects.toThrow(/cannot be deleted here; delete its files/);
    expect((await client().batch.jobs.get({ jobId: job.id })).id).toBe(job.id);
    await expect(client().batch.jobs.delete({ jobId: 'batch_missing' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('batch jobs: create with a job-level model, get until SUCCESS, list, read the output file', async () => {
    const input = await client().files.upload({
      file: {
        fileName: 'jobs.jsonl',
        content: jsonl(
          { custom_id: 'one', body: { messages: [{ role: 'user', content: 'first answer' }] } },
          { custom_id: 'two', body: { messages: [{ role: 'user', content: 'second answer' }] } },
        ),
      },
      purpose: 'batch',
    });
    const job = await client().batch.jobs.create({
      inputFiles: [input.id],
      endpoint: '/v1/chat/completions',
      model: 'svc-large-3',
      metadata: { run: 'sdk' },
    });
    expect(job).toMatchObject({
      object: 'batch',
      endpoint: '/v1/chat/completions',
      status: 'QUEUED',
      metadata: { run: 'sdk' },
    });
    const finished = await waitForJob(job.id, (status) => status === 'SUCCESS' || status === 'FAILED');
    expect(finished).toMatchObject({
      status: 'SUCCESS',
      totalRequests: 2,
      succeededRequests: 2,
      failedRequests: 0,
      completedRequests: 2,
    });
    expect(finished.outputFile).toEqual(expect.any(String));
    const output = (await textOf(await client().files.download({ fileId: finished.outputFile! })))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(output.map((line) => line.custom_id).sort()).toEqual(['one', 'two']);
    expect(output.find((line) => line.custom_id === 'one').response.body.choices[0].message.content).toBe(
      'first answer',
    );

    const list = await client().batch.jobs.list({});
    expect(list.total).toBeGreaterThan(0);
    expect(list.data?.map((entry) => entry.id)).toContain(job.id);
    // The SPEC and OpenAI shapes stay on their own paths.
    const spec = await stack.gateway.request(`/v1/batch/${job.id}`);
    expect(await spec.json()).toMatchObject({ id: job.id, status: 'completed', request_counts: { total: 2 } });
  });

  it('batch jobs: a job-level model no route serves is a 422 naming model at creation; a broken JSONL upload is a 422 naming the line', async () => {
    const unknown = client().batch.jobs.create({
      endpoint: '/v1/chat/completions',
      model: 'mistral-tiny-1999',
      requests: [{ customId: 'one', body: { messages: [{ role: 'user', content: 'x' }] } }],
    });
    await expect(unknown).rejects.toMatchObject({ statusCode: 422, body: expect.stringContaining('"param":"model"') });
    await expect(unknown).rejects.toThrow(/mistral-tiny-1999.{0,4} is not served by this gateway/);
    const broken = client().files.upload({
      file: {
        fileName: 'jobs.jsonl',
        content: new TextEncoder().encode('{"custom_id": "one", "body": {}}\n{"body": {}}\n'),
      },
      purpose: 'batch',
    });
    await expect(broken).rejects.toMatchObject({ statusCode: 422 });
    await expect(broken).rejects.toThrow(/Line 2 of the batch file has no 'custom_id'/);
  });

  it('batch jobs: inline requests, and cancelling a running job', async () => {
    stack.upstream.setBehaviour({ failure: { type: 'slow_chunks', delayMs: 400 }, path: '/v1/chat/completions' });
    try {
      const job = await client().batch.jobs.create({
        endpoint: '/v1/chat/completions',
        model: 'svc-large-3',
        requests: Array.from({ length: 6 }, (_, index) => ({
          customId: `r${index}`,
          body: { messages: [{ role: 'user', content: `slow ${index}` }] },
        })),
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

    const updated = await client().models.update({
      modelId: FINE_TUNED,
      updateModelRequest: { name: 'Acme tuned', description: 'for tests' },
    });
    expect(updated).toMatchObject({ id: FINE_TUNED, name: 'Acme tuned', description: 'for tests' });
    expect(await client().models.archive({ modelId: FINE_TUNED })).toMatchObject({ id: FINE_TUNED, archived: true });
    expect(await client().models.retrieve({ modelId: FINE_TUNED })).toMatchObject({
      type: 'fine-tuned',
      archived: true,
    });
    expect(await client().models.unarchive({ modelId: FINE_TUNED })).toMatchObject({ archived: false });
    await expect(
      client().models.update({ modelId: 'svc-large-3-2512', updateModelRequest: { name: 'x' } }),
    ).rejects.toMatchObject({ statusCode: 422 });
    const deleteBase = client().models.delete({ modelId: 'svc-large-3-2512' });
    await expect(deleteBase).rejects.toMatchObject({ statusCode: 422 });
    await expect(deleteBase).rejects.toThrow(/is a base model; only fine-tuned models/);
  });

  it('chat.stream: every chunk carries delta.content (the first with the role, the last with finish_reason), text and tool calls alike', async () => {
    const text = await collect(
      await client().chat.stream({ model: 'svc-large-3', messages: [{ role: 'user', content: 'un deux trois' }] }),
    );
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', parameters: { type: 'object', properties: { input: { type: 'string' } } } },
      },
    ];
    const called = await collect(
      await client().chat.stream({
        model: 'svc-large-3',
        messages: [{ role: 'user', content: 'get_weather in Lyon' }],
        tools,
      }),
    );
    for (const events of [text, called]) {
      const choices = events.map((event) => event.data.choices[0]).filter((choice) => choice !== undefined);
      for (const choice of choices) expect(choice.delta.content).toBeTypeOf('string');
      expect(choices[0]!.delta.role).toBe('assistant');
      expect(choices.slice(0, -1).every((choice) => choice.finishReason === null)).toBe(true);
      expect(choices.at(-1)!.delta.content).toBe('');
    }
    expect(text.map((event) => event.data.choices[0]?.delta.content ?? '').join('')).toBe('un deux trois');
    const call = called.flatMap((event) => event.data.choices[0]?.delta.toolCalls ?? []);
    expect(call).toMatchObject([
      { function: { name: 'get_weather', arguments: JSON.stringify({ input: 'get_weather in Lyon' }) } },
    ]);
    expect(called.at(-1)!.data.choices[0]!.finishReason).toBe('tool_calls');
  });

  it("fim.complete: prompt and suffix to Mistral's FIM endpoint, and to an OpenAI-compatible upstream's /v1/completions; refused only when the upstream refuses", async () => {
    const answer = await client().fim.complete({
      model: 'codestral-model',
      prompt: 'def add(a, b):',
      suffix: 'return c',
    });
    expect(answer.choices?.at(0)?.message?.content).toBe('def add(a, b):');
    const sent = stack.upstream.requests.at(-1);
    expect(sent?.path).toBe('/v1/fim/completions');
    expect(sent?.body).toMatchObject({ model: 'codestral-upstream', prompt: 'def add(a, b):', suffix: 'return c' });

    const viaCompletions = await client().fim.complete({ model: 'svc-large-3', prompt: 'x = ', suffix: ';' });
    expect(viaCompletions.choices?.at(0)?.message?.content).toMatch(/^x =/);
    expect(stack.upstream.requests.at(-1)).toMatchObject({
      path: '/v1/completions',
      body: { model: 'my-model', prompt: 'x = ', suffix: ';' },
    });
    const streamed = await collect(await client().fim.stream({ model: 'svc-large-3', prompt: 'y = ', suffix: ';' }));
    expect(streamed.map((event) => event.data.choices[0]?.delta.content ?? '').join('')).toMatch(/^y =/);
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({ suffix: ';', stream: true });

    const refusal = {
      error: {
        message: 'suffix is not supported for this model',
        type: 'invalid_request_error',
        param: 'suffix',
        code: null,
      },
    };
    stack.upstream.setBehaviour({
      failure: { type: 'status', status: 400, body: refusal },
      path: '/v1/completions',
      times: 1,
    });
    const refused = client().fim.complete({ model: 'svc-large-3', prompt: 'x = ', suffix: ';' });
    // The upstream's own refusal, naming the field, in the gateway's error shape.
    await expect(refused).rejects.toMatchObject({ statusCode: 422 });
    await expect(refused).rejects.toThrow(/suffix is not supported/);
  });

  it('audio.transcriptions.complete carries language and usage', async () => {
    const result = await client().audio.transcriptions.complete({
      model: 'whisper-model',
      file: { fileName: 'clip.wav', content: new Uint8Array(makeWav(1)) },
      language: 'en',
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.language).toBe('en');
    // The upstream's own duration (the fake reports 2 s) wins over the WAV header's.
    expect(result.usage).toMatchObject({ promptAudioSeconds: 2, totalTokens: 0 });
  });

  it('audio.transcriptions.complete with fileId (a stored file) or fileUrl (fetched under the URL policy)', async () => {
    const stored = await client().files.upload({
      file: { fileName: 'stored.wav', content: new Uint8Array(makeWav(1)) },
      purpose: 'user_data' as never,
    });
    const result = await client().audio.transcriptions.complete({ model: 'whisper-model', fileId: stored.id });
    expect(result.text).toBe('Transcript of stored.wav with 32044 bytes.');
    await expect(
      client().audio.transcriptions.complete({ model: 'whisper-model', fileId: 'file-missing' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const local = client().audio.transcriptions.complete({
      model: 'whisper-model',
      fileUrl: `${stack.gateway.url}/clip.wav`,
    });
    await expect(local).rejects.toMatchObject({ statusCode: 422 });
    await expect(local).rejects.toThrow(/url_not_allowed|does not fetch/);
  });

  it('audio.transcriptions.stream: language, segments, the text, then transcription.done with usage', async () => {
    const events = await collect(
      await client().audio.transcriptions.stream({
        model: 'whisper-model',
        file: { fileName: 'clip.wav', content: new Uint8Array(makeWav(1)) },
        language: 'en',
      }),
    );
    expect(events.map((event) => event.event)).toEqual(events.map((event) => event.data.type));
    expect(events[0]!.data).toEqual({ type: 'transcription.language', audioLanguage: 'en' });
    const text = events
      .flatMap((event) => (event.data.type === 'transcription.text.delta' ? [event.data.text] : []))
      .join('');
    expect(text).toBe('Transcript of clip.wav with 32044 bytes.');
    expect(events.at(-1)!.data).toMatchObject({
      type: 'transcription.done',
      model: 'whisper-model',
      text,
      language: 'en',
      usage: { promptAudioSeconds: 2 },
    });
  });

  // Each surface nothing here serves answers the documented error: 404, code capability_not_served,
  // a message saying what is missing and what to do, never the bare 404 of an unknown URL.
  const notServed = async (call: Promise<unknown>, message: RegExp) => {
    const error = (await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    )) as { statusCode: number; body: string } | undefined;
    expect(error?.statusCode).toBe(404);
    const body = JSON.parse(error!.body);
    expect(body).toMatchObject({
      code: 'capability_not_served',
      type: 'not_found_error',
      error: { code: 'capability_not_served', type: 'not_found_error' },
    });
    expect(body.message).toMatch(message);
  };

  it('audio.speech, audio.voices and beta.libraries get the clear error saying what to use instead', async () => {
    await notServed(
      client().audio.speech.complete({ model: 'whisper-model', input: 'say this' }),
      /no text-to-speech backend .*transcription/,
    );
    await notServed(client().audio.voices.list({}), /no text-to-speech backend/);
    await notServed(client().audio.voices.get({ voiceId: 'v1' }), /\/v1\/audio\/voices\/… is not served/);
    await notServed(client().beta.libraries.list(), /no document libraries.*\/v1\/embeddings/);
    await notServed(client().beta.libraries.create({ name: 'Docs' }), /no document libraries/);
    await notServed(client().beta.libraries.documents.list({ libraryId: 'lib_1' }), /no document libraries/);
    await notServed(client().beta.libraries.delete({ libraryId: 'lib_1' }), /no document libraries/);
  });

  it("Mistral's hosted-platform surfaces (workflows, prompts, connectors) get the clear error naming what they are", async () => {
    await notServed(
      client().workflows.getWorkflows({}),
      /\/v1\/workflows… \(workflows and their events\) is part of Mistral's hosted platform/,
    );
    await notServed(client().beta.prompts.list({}), /\/v2\/prompts… \(the prompt library\)/);
    await notServed(
      client().beta.connectors.list({}),
      /\/v1\/connectors… \(connectors\).*it serves inference \(chat, /,
    );
  });

  it('chat.parse and chat.parseStream: the zod schema goes out as a JSON schema response_format, the answer comes back parsed', async () => {
    const parsed = await client().chat.parse({
      model: 'svc-large-3',
      messages: [{ role: 'user', content: '{"city":"Paris","rain":false}' }],
      responseFormat: z.object({ city: z.string(), rain: z.boolean() }),
    });
    expect(parsed.choices?.[0]?.message?.parsed).toEqual({ city: 'Paris', rain: false });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { schema: { properties: { city: { type: 'string' } } } } },
    });

    const streamed = await collect(
      await client().chat.parseStream({
        model: 'svc-large-3',
        messages: [{ role: 'user', content: '{"city":"Lyon","rain":true}' }],
        responseFormat: z.object({ city: z.string(), rain: z.boolean() }),
      }),
    );
    const text = streamed.map((event) => event.data.choices[0]?.delta.content ?? '').join('');
    expect(JSON.parse(text)).toEqual({ city: 'Lyon', rain: true });
    expect(stack.upstream.requests.at(-1)?.body).toMatchObject({
      stream: true,
      response_format: { type: 'json_schema' },
    });
  });

  it('chat.complete with a document_url part is answered from the document', async () => {
    const { pdf } = await makeTextPdf([
      {
        lines: [
          { text: 'The invoice total is 4210 euros.', x: 50, y: 100, size: 14 },
          { text: 'Payment is due in March.', x: 50, y: 130, size: 14 },
        ],
      },
    ]);
    const answer = await client().chat.complete({
      model: 'svc-large-3',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is the invoice total?' },
            { type: 'document_url', documentUrl: `data:application/pdf;base64,${pdf.toString('base64')}` },
          ],
        },
      ],
    });
    const content = answer.choices[0]?.message?.content;
    expect(typeof content === 'string' ? content : JSON.stringify(content)).toMatch(/4210/);
  }, 60_000);
});
