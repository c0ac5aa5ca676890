import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../gateway/test/support/fake-upstream.js';
import { dropRedisPrefix, TEST_REDIS_URL } from '../gateway/test/support/team-of-gateways.js';
import { launchChromium, newConsolePage, screenshot, signIn } from './support/browser.js';
import { CHAT_MODEL } from './support/fake-stack.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

/**
 * Two instances of a team (one data folder, one Redis prefix): the console on one opens a request the
 * other served. The list and the live feed carry only its summary; the drawer reads the whole entry.
 */
describe('request log of a team of gateways', () => {
  const prefix = `switchyard-e2e-${randomUUID()}:`;
  let upstream: FakeUpstream;
  let shared: string;
  const instances: RunningGateway[] = [];
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ apiKey: 'sk-upstream' });
    shared = await mkdtemp(join(tmpdir(), 'switchyard-e2e-team-'));
    const config = {
      server: { request_log_bodies: true },
      providers: [{ id: 'fake', type: 'openai', base_url: upstream.url, api_key: 'sk-upstream' }],
      models: [{ id: CHAT_MODEL, provider: 'fake', upstream_model: 'fake-chat', capabilities: ['chat'] }],
    };
    // One after the other: the first creates the database.
    for (const id of ['instance-a', 'instance-b']) {
      instances.push(
        await startGateway(config, {
          GATEWAY_DATA_DIR: shared,
          GATEWAY_REDIS_URL: TEST_REDIS_URL,
          GATEWAY_REDIS_PREFIX: prefix,
          GATEWAY_INSTANCE_ID: id,
        }),
      );
    }
    browser = await launchChromium();
    page = await newConsolePage(browser);
    await signIn(page, instances[1].url, instances[1].adminKey, '/ui/requests');
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    await upstream?.close();
    if (shared) await rm(shared, { recursive: true, force: true });
    await dropRedisPrefix(TEST_REDIS_URL, prefix);
  });

  it("opens the other instance's request with its headers and bodies", async () => {
    const [a] = instances;
    const chat = await fetch(`${a.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${a.adminKey}`,
        'content-type': 'application/json',
        'x-request-id': 'served-by-a',
      },
      body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Hello from instance A' }] }),
    });
    expect(chat.status).toBe(200);

    const row = page.getByTestId('request-log').getByRole('row', { name: /POST \/v1\/chat\/completions 200/ });
    await row.waitFor();
    await row.click();
    const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
    await drawer.waitFor();
    await drawer.getByTestId('request-body').waitFor();
    expect(await drawer.getByTestId('request-body').textContent()).toContain('Hello from instance A');
    expect(await drawer.getByTestId('response-body').textContent()).toContain('chat.completion');
    const text = await drawer.textContent();
    expect(text).toContain('instance-a');
    expect(text).toContain('Request headers');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(a.adminKey);
    await screenshot(page, 'team-request-log-drawer');
  });
});
