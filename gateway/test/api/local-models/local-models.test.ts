import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../../support/fake-hub.js';
import { ggufHeader } from '../../support/gguf-header.js';
import { readSse } from '../../support/sse.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { writeTinyLlamaGguf } from '../../support/tiny-gguf.js';

const REPO = 'acme/Tiny-Chat-GGUF';
const FILE = 'tiny-chat-q8_0.gguf';
const MODEL = 'tiny-chat-q8_0';
const HOLD = 160 * 1024;

let hub: FakeHub;
let tiny: Buffer;
let scratch: string;
const gateways: TestGateway[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'switchyard-hub-'));
  await writeTinyLlamaGguf(join(scratch, 'tiny.gguf'), { seed: 5 });
  tiny = readFileSync(join(scratch, 'tiny.gguf'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function setUp(options: { dataDir?: string; token?: string } = {}): Promise<TestGateway> {
  hub ??= await startFakeHub();
  const gateway = await startGateway({
    dataDir: options.dataDir,
    env: { HF_ENDPOINT: hub.url, ...(options.token ? { HF_TOKEN: options.token } : {}) },
    config: { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] },
  });
  gateways.push(gateway);
  await gateway.app.ready();
  return gateway;
}

afterEach(async () => {
  hub?.release();
  for (const gateway of gateways.splice(0)) await gateway.close();
  await hub?.close();
  hub = undefined as unknown as FakeHub;
});

async function freshHub(): Promise<FakeHub> {
  hub = await startFakeHub();
  hub.addRepo(REPO, { [FILE]: tiny, 'README.md': Buffer.from('# Tiny chat\n') });
  return hub;
}

const startDownload = (gateway: TestGateway, body: Record<string, unknown> = { repo: REPO, file: FILE }) =>
  gateway.request('/v1/local-models/downloads', { method: 'POST', json: body });

/** Polls the download until `done` says so (the download manager works in the background). */
async function waitFor(gateway: TestGateway, id: string, done: (download: Json) => boolean): Promise<Json> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const download = await json(await gateway.request(`/v1/local-models/downloads/${id}`));
    if (done(download)) return download;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`download ${id} never reached the expected state`);
}

const partials = (gateway: TestGateway): string[] => {
  const dir = join(gateway.dataDir, 'models', '.partial');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function modelIds(gateway: TestGateway): Promise<string[]> {
  return (await json(await gateway.request('/models'))).data.map((model: Json) => model.id);
}

describe('the download manager against the hub API', () => {
  it('downloads a GGUF through the redirect to the file host, verifies it, and chats with it without a restart', async () => {
    await freshHub();
    const gateway = await setUp();
    expect(await modelIds(gateway)).not.toContain(MODEL);
    const created = await startDownload(gateway);
    expect(created.status).toBe(201);
    const download = await json(created);
    expect(download).toMatchObject({
      object: 'local_model.download',
      repo: REPO,
      file: FILE,
      revision: 'main',
      bytes_total: tiny.length,
    });
    expect(download.id).toMatch(/^dl_/);
    const done = await waitFor(gateway, download.id, (current) => current.status === 'completed');
    expect(done).toMatchObject({ bytes_done: tiny.length, bytes_total: tiny.length, eta_seconds: 0, model: MODEL });
    expect(readFileSync(join(gateway.dataDir, 'models', FILE)).equals(tiny)).toBe(true);
    expect(partials(gateway)).toEqual([]);
    // Private to the user, like everything in the data folder (Windows has no such modes).
    if (process.platform !== 'win32') {
      expect((statSync(join(gateway.dataDir, 'models', FILE)).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(join(gateway.dataDir, 'models')).mode & 0o777).toString(8)).toBe('700');
    }
    // The token-less file host got the bytes; the resolve URL only redirected.
    expect(hub.transfers.length).toBeGreaterThan(0);

    const models = (await json(await gateway.request('/models'))).data;
    expect(models.find((model: Json) => model.id === MODEL)).toMatchObject({
      capabilities: ['chat', 'completions', 'embeddings'],
    });
    expect(models.map((model: Json) => model.id)).toContain('svc-large-3-2512');
    const chat = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: MODEL, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 4 },
    });
    expect(chat.status).toBe(200);
    expect((await json(chat)).choices[0].message.role).toBe('assistant');

    const files = (await json(await gateway.request('/v1/local-models/files'))).data;
    expect(files).toContainEqual(
      expect.objectContaining({
        name: FILE,
        model: MODEL,
        kind: 'gguf',
        size_bytes: tiny.length,
        architecture: 'llama',
        quantization: 'F32',
        context_length: 2048,
        loaded: true,
      }),
    );

    const deleted = await gateway.request(`/v1/local-models/files/${FILE}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ name: FILE, object: 'local_model.file', deleted: true });
    expect(existsSync(join(gateway.dataDir, 'models', FILE))).toBe(false);
    expect(await modelIds(gateway)).not.toContain(MODEL);
    const gone = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: { model: MODEL, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 4 },
    });
    expect(gone.status).toBe(404);
    expect((await json(await gateway.request(`/v1/local-models/files/${FILE}`, { method: 'DELETE' }))).code).toBe(
      'model_file_not_found',
    );
    expect(await json(await gateway.request(`/v1/local-models/downloads/${download.id}`))).toMatchObject({
      status: 'cancelled',
      model: null,
      error: 'The model file was deleted.',
    });
  });

  it('pauses and resumes with a Range request from where it stopped; two requests share one download', async () => {
    await freshHub();
    hub.holdAt(FILE, HOLD);
    const gateway = await setUp();
    const first = await json(await startDownload(gateway));
    const second = await startDownload(gateway);
    expect(second.status).toBe(200);
    expect((await json(second)).id).toBe(first.id);
    await waitFor(gateway, first.id, (current) => current.bytes_done === HOLD);

    const paused = await json(
      await gateway.request(`/v1/local-models/downloads/${first.id}/pause`, { method: 'POST' }),
    );
    // Every byte received before the pause is on disk.
    const kept = statSync(join(gateway.dataDir, 'models', '.partial', `${first.id}.part`)).size;
    expect(kept).toBe(HOLD);
    expect(paused).toMatchObject({ status: 'paused', bytes_done: kept, bytes_per_second: 0, eta_seconds: null });
    expect(
      (await json(await gateway.request(`/v1/local-models/downloads/${first.id}/pause`, { method: 'POST' }))).code,
    ).toBe('download_not_running');
    expect(await modelIds(gateway)).not.toContain(MODEL);
    hub.release();

    const events = gateway.request(`/v1/local-models/downloads/${first.id}/events`);
    expect(
      (await json(await gateway.request(`/v1/local-models/downloads/${first.id}/resume`, { method: 'POST' }))).status,
    ).toMatch(/queued|downloading/);
    const frames = (await readSse(await events)) as Json[];
    expect(frames.at(-1)).toBe('[DONE]');
    expect(frames[0]).toMatchObject({ id: first.id, status: 'paused' });
    expect(frames.at(-2)).toMatchObject({ status: 'completed', bytes_done: tiny.length });
    expect(hub.transfers.map((transfer) => transfer.range)).toEqual([undefined, `bytes=${kept}-`]);
    expect(readFileSync(join(gateway.dataDir, 'models', FILE)).equals(tiny)).toBe(true);
  });

  it('resumes after the connection drops midway', async () => {
    await freshHub();
    hub.dropOnceAt(FILE, 100_000);
    const gateway = await setUp();
    const download = await json(await startDownload(gateway));
    await waitFor(gateway, download.id, (current) => current.status === 'completed');
    expect(hub.transfers.map((transfer) => transfer.range)).toEqual([undefined, 'bytes=100000-']);
    expect(readFileSync(join(gateway.dataDir, 'models', FILE)).equals(tiny)).toBe(true);
  });

  it('resumes after a gateway restart from the bytes already on disk', async () => {
    await freshHub();
    hub.holdAt(FILE, HOLD);
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-restart-'));
    try {
      const before = await setUp({ dataDir });
      const download = await json(await startDownload(before));
      await waitFor(before, download.id, (current) => current.bytes_done === HOLD);
      await before.stop();
      expect(readdirSync(join(dataDir, 'models'))).toEqual(['.partial']);
      const kept = statSync(join(dataDir, 'models', '.partial', `${download.id}.part`)).size;
      expect(kept).toBe(HOLD);
      hub.release();

      const after = await setUp({ dataDir });
      const listed = (await json(await after.request('/v1/local-models/downloads'))).data;
      expect(listed.map((item: Json) => item.id)).toEqual([download.id]);
      await waitFor(after, download.id, (current) => current.status === 'completed');
      expect(hub.transfers.map((transfer) => transfer.range)).toEqual([undefined, `bytes=${kept}-`]);
      expect(readFileSync(join(dataDir, 'models', FILE)).equals(tiny)).toBe(true);
      expect(await modelIds(after)).toContain(MODEL);
    } finally {
      for (const gateway of gateways.splice(0)) await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('fails verification on a corrupted byte and leaves no model', async () => {
    await freshHub();
    hub.corrupt(REPO, FILE);
    const gateway = await setUp();
    const download = await json(await startDownload(gateway));
    const failed = await waitFor(gateway, download.id, (current) => current.status === 'failed');
    expect(failed.error).toMatch(/SHA-256/);
    expect(readdirSync(join(gateway.dataDir, 'models')).filter((name) => name !== '.partial')).toEqual([]);
    expect(partials(gateway)).toEqual([]);
    expect(await modelIds(gateway)).not.toContain(MODEL);

    // Asking again retries the failed download from scratch instead of starting a second one.
    const again = await startDownload(gateway);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({
      id: download.id,
      status: expect.stringMatching(/^(queued|downloading)$/),
      bytes_done: 0,
    });
    expect((await waitFor(gateway, download.id, (current) => current.status === 'failed')).error).toMatch(/SHA-256/);
  });

  it('cancel stops the transfer and removes the partial file', async () => {
    await freshHub();
    hub.holdAt(FILE, HOLD);
    const gateway = await setUp();
    const download = await json(await startDownload(gateway));
    await waitFor(gateway, download.id, (current) => current.bytes_done === HOLD);
    expect(partials(gateway)).toEqual([`${download.id}.part`]);
    const cancelled = await gateway.request(`/v1/local-models/downloads/${download.id}`, { method: 'DELETE' });
    expect(await json(cancelled)).toMatchObject({ status: 'cancelled', bytes_done: 0 });
    expect(partials(gateway)).toEqual([]);
    expect(readdirSync(join(gateway.dataDir, 'models')).filter((name) => name !== '.partial')).toEqual([]);
  });

  it('refuses a file larger than the free disk space before transferring anything', async () => {
    await freshHub();
    hub.claimSize(REPO, FILE, 2 ** 52);
    const gateway = await setUp();
    const response = await startDownload(gateway);
    expect(response.status).toBe(507);
    expect(await json(response)).toMatchObject({
      object: 'error',
      code: 'insufficient_disk_space',
      param: 'file',
      message: expect.stringMatching(/free/),
    });
    expect(hub.transfers).toEqual([]);
    expect((await json(await gateway.request('/v1/local-models/downloads'))).data).toEqual([]);
  });

  it('sends HF_TOKEN to the hub for a gated repository, never to the file host', async () => {
    await freshHub();
    hub.addRepo('acme/Gated-GGUF', { [FILE]: tiny }, { gatedToken: 'hf_secret' });
    const anonymous = await setUp();
    const refused = await startDownload(anonymous, { repo: 'acme/Gated-GGUF', file: FILE });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({
      code: 'hub_access_denied',
      message: expect.stringMatching(/HF_TOKEN/),
    });
    await anonymous.close();

    const withToken = await setUp({ token: 'hf_secret' });
    const download = await json(await startDownload(withToken, { repo: 'acme/Gated-GGUF', file: FILE }));
    await waitFor(withToken, download.id, (current) => current.status === 'completed');
    expect(hub.hubAuthorizations.at(-1)).toBe('Bearer hf_secret');
    expect(hub.transfers.every((transfer) => transfer.authorization === undefined)).toBe(true);
  });

  it('searches the hub for loadable files, lists the catalog, and answers bad requests clearly', async () => {
    await freshHub();
    hub.addRepo('acme/other-safetensors', { 'model.safetensors': Buffer.from('x') }, { tags: ['transformers'] });
    const gateway = await setUp();
    const search = await json(await gateway.request('/v1/local-models/search?q=tiny'));
    expect(search.data).toEqual([
      expect.objectContaining({
        repo: REPO,
        files: [{ path: FILE, size_bytes: tiny.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      }),
    ]);

    const catalog = (await json(await gateway.request('/v1/local-models/catalog'))).data;
    expect(catalog.length).toBeGreaterThan(4);
    expect(catalog[0]).toMatchObject({
      repo: expect.any(String),
      file: expect.stringMatching(/\.gguf$/),
      size_bytes: expect.any(Number),
      licence: expect.any(String),
      ram_bytes: expect.any(Number),
      capabilities: expect.any(Array),
      model: expect.any(String),
    });

    const missing = await startDownload(gateway, { repo: REPO, file: 'nope.gguf' });
    expect(missing.status).toBe(404);
    expect((await json(missing)).code).toBe('hub_not_found');
    const wrongKind = await startDownload(gateway, { repo: 'acme/other-safetensors', file: 'model.safetensors' });
    expect(wrongKind.status).toBe(422);
    expect((await json(wrongKind)).code).toBe('unsupported_model_file');
    const climbing = await startDownload(gateway, { repo: REPO, file: '../x.gguf' });
    expect((await json(climbing)).param).toBe('file');
    expect((await gateway.request('/v1/local-models/downloads/dl_nope')).status).toBe(404);

    const member = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'm', role: 'member' } }),
    );
    const forbidden = await gateway.request('/v1/local-models/catalog', { key: member.key });
    expect(forbidden.status).toBe(403);
    expect(await json(forbidden)).toMatchObject({ object: 'error', type: 'permission_error' });
  });

  it('routes an encoder GGUF for embeddings only (from its metadata), and puts sherpa-onnx speech files in a speech model folder', async () => {
    await freshHub();
    const encoder = ggufHeader({
      'general.architecture': 'bert',
      'general.file_type': 1,
      'bert.context_length': 512,
      'bert.pooling_type': 1,
    });
    hub.addRepo('acme/tiny-embed-GGUF', { 'tiny-embed-f16.gguf': encoder });
    hub.addRepo('acme/sherpa-onnx-whisper-nano', {
      'nano-encoder.int8.onnx': Buffer.from('encoder'),
      'nano-decoder.int8.onnx': Buffer.from('decoder'),
      'nano-tokens.txt': Buffer.from('a 0\n'),
    });
    const gateway = await setUp();

    const embed = await json(
      await startDownload(gateway, { repo: 'acme/tiny-embed-GGUF', file: 'tiny-embed-f16.gguf' }),
    );
    await waitFor(gateway, embed.id, (current) => current.status === 'completed');
    const models = (await json(await gateway.request('/models'))).data;
    expect(models.find((model: Json) => model.id === 'tiny-embed-f16')).toMatchObject({
      capabilities: ['embeddings'],
      provider: 'local-llm',
    });
    expect(models.map((model: Json) => model.id)).not.toContain('svc-large-3-2512');

    for (const file of ['nano-encoder.int8.onnx', 'nano-decoder.int8.onnx', 'nano-tokens.txt']) {
      const download = await json(await startDownload(gateway, { repo: 'acme/sherpa-onnx-whisper-nano', file }));
      const done = await waitFor(gateway, download.id, (current) => current.status === 'completed');
      expect(done.model).toBe('svc-transcribe-1-2507');
    }
    expect(readdirSync(join(gateway.dataDir, 'models', 'speech', 'sherpa-onnx-whisper-nano')).sort()).toEqual([
      'nano-decoder.int8.onnx',
      'nano-encoder.int8.onnx',
      'nano-tokens.txt',
    ]);
    const files = (await json(await gateway.request('/v1/local-models/files'))).data;
    expect(files).toContainEqual(
      expect.objectContaining({
        name: 'tiny-embed-f16.gguf',
        architecture: 'bert',
        quantization: 'F16',
        context_length: 512,
        capabilities: ['embeddings'],
      }),
    );
    expect(files).toContainEqual(
      expect.objectContaining({
        name: 'speech/sherpa-onnx-whisper-nano',
        kind: 'speech',
        model: 'svc-transcribe-1-2507',
        architecture: 'whisper',
        quantization: 'int8',
      }),
    );
    expect(
      (
        await gateway.request(`/v1/local-models/files/${encodeURIComponent('speech/sherpa-onnx-whisper-nano')}`, {
          method: 'DELETE',
        })
      ).status,
    ).toBe(200);
    expect(existsSync(join(gateway.dataDir, 'models', 'speech', 'sherpa-onnx-whisper-nano'))).toBe(false);
  });
});
