import { afterEach, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../../support/fake-hub.js';
import { json, type Json } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

let hub: FakeHub | undefined;
afterEach(async () => {
  hub?.release();
  await hub?.close();
  hub = undefined;
});

/**
 * No hub is reachable from the test machines, so the catalog's Whisper tiny.en entry is served by
 * the fake hub with tiny stand-in files of the real layout (encoder, decoder, tokens, same names):
 * this checks the download, the SHA-256 check and the route, not the recognition itself.
 */
describe('a speech model from the catalog', () => {
  it('transcription reads unavailable with one line, then is served (cold, ready to load) as soon as the catalog download completes, without a request or restart', async () => {
    hub = await startFakeHub();
    const gateway = await useGateway({ env: { HF_ENDPOINT: hub.url } });
    const catalog = (await json(await gateway.request('/v1/local-models/catalog'))).data as Json[];
    const whisper = catalog.find((entry) => entry.id === 'whisper-tiny.en')!;
    expect(whisper).toMatchObject({ capabilities: ['transcription'], repo: 'csukuangfj/sherpa-onnx-whisper-tiny.en' });
    hub.addRepo(
      whisper.repo,
      Object.fromEntries((whisper.files as string[]).map((file) => [file, Buffer.from(`stand-in ${file}`)])),
    );

    await expect
      .poll(async () => (await json(await gateway.request('/status'))).capabilities.transcription.state)
      .toBe('unavailable');
    const before = (await json(await gateway.request('/status'))).capabilities.transcription;
    expect(before.reason).not.toContain('\n');
    expect(before.reason).toMatch(/: no speech model installed: download one from the catalog/);
    expect(before.reason.length).toBeLessThan(240);

    for (const file of whisper.files as string[]) {
      const started = await gateway.request('/v1/local-models/downloads', {
        method: 'POST',
        json: { repo: whisper.repo, file, revision: whisper.revision },
      });
      expect(started.status).toBeLessThan(300);
      const { id } = await json(started);
      await expect
        .poll(async () => (await json(await gateway.request(`/v1/local-models/downloads/${id}`))).status, {
          timeout: 10_000,
        })
        .toBe('completed');
    }

    // Routed at once: /status and /v1/models say the route can serve, on the next look.
    await expect
      .poll(async () => (await json(await gateway.request('/status'))).capabilities.transcription.state, {
        timeout: 5_000,
      })
      .toBe('cold');
    const card = (await json(await gateway.request('/v1/models'))).data.find(
      (model: Json) => model.id === whisper.model,
    );
    expect(card.health.state).toBe('cold');
    expect((await json(await gateway.request('/status'))).checks.asr).toBe(true);
  });
});
