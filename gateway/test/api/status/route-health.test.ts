import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { json } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

/** A local port nothing listens on: connections to it are refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Health {
  state: string;
  reason?: string;
}

/** What every endpoint says about the route `refused-model` and its provider `refused`. */
async function verdicts(gateway: Awaited<ReturnType<typeof useGateway>>) {
  const card = (await json(await gateway.request('/v1/models'))).data.find(
    (m: { id: string }) => m.id === 'refused-model',
  );
  const one = await json(await gateway.request('/v1/models/refused-model'));
  const listed = (await json(await gateway.request('/models'))).data.find(
    (m: { id: string }) => m.id === 'refused-model',
  );
  const status = await json(await gateway.request('/status'));
  const settings = await json(await gateway.request('/settings'));
  return {
    card: card as { state: string; health: Health },
    one: one as { state: string; health: Health },
    listed: listed as { state: string; health: Health },
    status: (status.providers as { id: string; health: Health }[]).find((p) => p.id === 'refused')!.health,
    settings: (settings.providers as { id: string; health: Health }[]).find((p) => p.id === 'refused')!.health,
  };
}

describe('one health for a route, on every endpoint', () => {
  it('a provider that refuses connections is unreachable on /v1/models, /models, /status and /settings alike, never ready', async () => {
    const port = await refusedPort();
    const gateway = await useGateway({
      config: {
        providers: [
          {
            id: 'refused',
            type: 'openai',
            base_url: `http://127.0.0.1:${port}/v1`,
            api_key: 'x',
            timeouts: { connect: 1000 },
          },
        ],
        models: [
          { id: 'refused-model', provider: 'refused', upstream_model: 'm', capabilities: ['chat'], max_retries: 0 },
        ],
      },
    });
    // Nothing has reached it yet: every endpoint says so, none says ready.
    let seen = await verdicts(gateway);
    for (const health of [seen.card.health, seen.one.health, seen.listed.health, seen.status, seen.settings])
      expect(health.state).toBe('not_tested');

    // Settings → Test: the connection is refused.
    const test = await json(await gateway.request('/settings/providers/refused/test', { method: 'POST' }));
    expect(test.ok).toBe(false);
    seen = await verdicts(gateway);
    for (const health of [seen.card.health, seen.one.health, seen.listed.health, seen.status, seen.settings]) {
      expect(health.state).toBe('unreachable');
      expect(health.reason).toMatch(/^the last test failed/);
    }
    // The engine-state field of the model agrees: a route that cannot serve is not "ready".
    for (const model of [seen.card, seen.one, seen.listed]) expect(model.state).toBe('unavailable');

    // Requests that fail open the breaker: still one verdict everywhere.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: { model: 'refused-model', messages: [{ role: 'user', content: 'hi' }] },
      });
    }
    seen = await verdicts(gateway);
    for (const health of [seen.card.health, seen.one.health, seen.listed.health, seen.status, seen.settings]) {
      expect(health.state).toBe('unreachable');
      expect(health.reason).toMatch(/^circuit breaker open after 5 failed requests/);
    }
  });

  it('transcription with its route but no speech model is "unavailable" with the reason, not "no route"', async () => {
    const gateway = await useGateway();
    const status = await json(await gateway.request('/status'));
    await expect
      .poll(async () => (await json(await gateway.request('/status'))).capabilities.transcription.state)
      .toBe('unavailable');
    const transcription = (await json(await gateway.request('/status'))).capabilities.transcription as Health;
    expect(transcription.reason).toMatch(/^svc-transcribe-[\w-]+: no speech model/);
    expect(status.checks.asr).toBe(false);
    const card = (await json(await gateway.request('/v1/models'))).data.find((m: { capability_list: string[] }) =>
      m.capability_list.includes('transcription'),
    );
    expect(card.health.state).toBe('unavailable');
  });
});
