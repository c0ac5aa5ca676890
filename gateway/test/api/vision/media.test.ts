import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY } from '../../support/upstream-config.js';
import { makeWav } from '../../support/wav.js';
import { useGateway, useFakeUpstream } from '../../support/use-resources.js';

let upstream: FakeUpstream;
let gateway: TestGateway;

const mediaConfig = (url: string) => ({
  providers: [{ id: 'media', type: 'openai', base_url: url, api_key: UPSTREAM_KEY }],
  models: [
    {
      id: 'svc-vision-3-1-2505',
      provider: 'media',
      upstream_model: 'painter',
      capabilities: ['image_generation'],
      image_sizes: ['64x64', '128x96'],
      max_images: 2,
      pricing: { input_per_million: 0, output_per_million: 0, per_request: 0.04 },
    },
    { id: 'whisper-1', provider: 'media', upstream_model: 'listener', capabilities: ['transcription'] },
  ],
});

beforeEach(async () => {
  upstream = await useFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await useGateway({ config: mediaConfig(upstream.url) });
});

const generate = (body: Record<string, unknown>) =>
  gateway.request('/v1/vision/generate', { method: 'POST', json: body });

function transcribe(fields: Record<string, string>, file?: { content: Buffer; name: string; type?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([new Uint8Array(file.content)], { type: file.type ?? 'audio/wav' }), file.name);
  return gateway.request('/transcript', { method: 'POST', body: form });
}

describe('image generation', () => {
  it('lists the sizes and count each generation model accepts, so a client can offer only those', async () => {
    const model = await json(await gateway.request('/v1/models/svc-vision-3-1-2505'));
    expect(model).toMatchObject({ image_sizes: ['64x64', '128x96'], max_images: 2 });
    const others = (await json(await gateway.request('/models'))).data.filter(
      (m: { capabilities: string[] }) => !m.capabilities.includes('image_generation'),
    );
    for (const other of others) expect(other.image_sizes).toBeUndefined();
  });

  it('stores every image and answers with URLs on the gateway that serve the PNG', async () => {
    const response = await generate({ prompt: 'a red square', size: '128x96', n: 2 });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ object: 'vision.image', model: 'svc-vision-3-1-2505', created: expect.any(Number) });
    expect(body.id).toMatch(/^img-/);
    expect(body.data).toHaveLength(2);
    for (const image of body.data) {
      expect(image.url).toMatch(new RegExp(`^${gateway.url}/v1/files/file-[\\w-]+/content$`));
      expect(image).not.toHaveProperty('b64_json');
      const file = await gateway.request(new URL(image.url).pathname);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      const metadata = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect([metadata.width, metadata.height]).toEqual([128, 96]);
    }
    expect((await gateway.request(new URL(body.data[0].url).pathname, { key: null })).status).toBe(401);
    expect((upstream.requests.at(-1)!.body as Json).model).toBe('painter');
    expect(Number(response.headers.get('x-request-cost'))).toBeCloseTo(0.04);
  });

  it('returns b64_json as well when asked, and the URL keeps working after a restart', async () => {
    const body = await json(await generate({ prompt: 'blue', size: '64x64', response_format: 'b64_json' }));
    const inline = Buffer.from(body.data[0].b64_json, 'base64');
    expect(inline.subarray(1, 4).toString()).toBe('PNG');
    const dataDir = gateway.dataDir;
    await gateway.stop();
    gateway = await useGateway({ dataDir, config: mediaConfig(upstream.url) });
    const file = await gateway.request(new URL(body.data[0].url).pathname);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(inline)).toBe(true);
    const listed = await json(await gateway.request('/v1/files?purpose=image_generation'));
    expect(listed.data.map((entry: Json) => entry.id)).toContain(body.data[0].file_id);
  });

  it('422 for a size the route does not offer, or too many images', async () => {
    const badSize = await generate({ prompt: 'x', size: '4096x4096' });
    expect(badSize.status).toBe(422);
    expect(await json(badSize)).toMatchObject({ code: 'invalid_size', param: 'size' });
    const malformed = await generate({ prompt: 'x', size: 'big' });
    expect(malformed.status).toBe(422);
    expect((await json(malformed)).param).toBe('size');
    const tooMany = await generate({ prompt: 'x', size: '64x64', n: 3 });
    expect(tooMany.status).toBe(422);
    expect((await json(tooMany)).param).toBe('n');
    const noPrompt = await generate({ size: '64x64' });
    expect((await json(noPrompt)).param).toBe('prompt');
  });

  it('502 when the provider fails, and nothing is stored', async () => {
    upstream.setBehaviour({ failure: { type: 'status', status: 500 } });
    const response = await generate({ prompt: 'x', size: '64x64' });
    expect(response.status).toBe(502);
    expect((await json(await gateway.request('/v1/files?purpose=image_generation'))).data).toHaveLength(0);
  });

  it('says how to add a backend when no route generates images', async () => {
    await gateway.close();
    gateway = await useGateway();
    const response = await generate({ prompt: 'x' });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.code).toBe('capability_not_supported');
    expect(body.message).toMatch(/models:/);
  });
});

describe('transcription', () => {
  const wav = { content: makeWav(1.5), name: 'tone.wav' };

  it('answers json with Cache-Control: no-store, sending the file to the upstream as multipart', async () => {
    const response = await transcribe({ model: 'whisper-1', language: 'en' }, wav);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json(response);
    expect(body.text.length).toBeGreaterThan(0);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/audio/transcriptions');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data/);
  });

  it('verbose_json has segments with timestamps; srt, vtt and text are rendered', async () => {
    const verbose = await json(await transcribe({ model: 'whisper-1', response_format: 'verbose_json' }, wav));
    expect(verbose.segments.length).toBeGreaterThan(0);
    expect(verbose.segments[0]).toMatchObject({
      id: expect.any(Number),
      start: expect.any(Number),
      end: expect.any(Number),
      text: expect.any(String),
    });
    const srt = await transcribe({ model: 'whisper-1', response_format: 'srt' }, wav);
    expect(await srt.text()).toMatch(/^1\n\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d\n/);
    const vtt = await transcribe({ model: 'whisper-1', response_format: 'vtt' }, wav);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n\d\d:\d\d:\d\d\.\d\d\d --> /);
    const text = await transcribe({ model: 'whisper-1', response_format: 'text' }, wav);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await text.text()).length).toBeGreaterThan(0);
  });

  it('the openai SDK path works too', async () => {
    const form = new FormData();
    form.set('model', 'whisper-1');
    form.set('file', new Blob([new Uint8Array(wav.content)], { type: 'audio/wav' }), 'tone.wav');
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(response.status).toBe(200);
  });

  it('rejects empty audio, non-audio, a missing file, a bad format and a JSON body', async () => {
    const empty = await transcribe({ model: 'whisper-1' }, { content: Buffer.alloc(0), name: 'empty.wav' });
    expect(empty.status).toBe(422);
    expect((await json(empty)).code).toBe('empty_audio');
    const notAudio = await transcribe(
      { model: 'whisper-1' },
      { content: Buffer.from('this is plain text, not audio at all'), name: 'notes.txt', type: 'text/plain' },
    );
    expect(notAudio.status).toBe(422);
    expect((await json(notAudio)).code).toBe('unsupported_audio_format');
    const missing = await transcribe({ model: 'whisper-1' });
    expect(missing.status).toBe(422);
    expect((await json(missing)).param).toBe('file');
    const badFormat = await transcribe({ model: 'whisper-1', response_format: 'docx' }, wav);
    expect((await json(badFormat)).param).toBe('response_format');
    const jsonBody = await gateway.request('/transcript', { method: 'POST', json: { file: 'abc' } });
    expect(jsonBody.status).toBe(415);
    expect(upstream.requests.filter((request) => request.path === '/v1/audio/transcriptions')).toHaveLength(0);
  });

  it('checks.asr is true with a transcription route; without one the error says how to add a model', async () => {
    expect((await json(await gateway.request('/status'))).checks.asr).toBe(true);
    await gateway.close();
    gateway = await useGateway();
    expect((await json(await gateway.request('/status'))).checks.asr).toBe(false);
    const response = await transcribe({}, wav);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expect((await json(response)).message).toMatch(/models\/speech/);
  });
});
