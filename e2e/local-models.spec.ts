import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../gateway/test/support/fake-hub.js';
import { writeTinyLlamaGguf } from '../gateway/test/support/tiny-gguf.js';
import { launchChromium, screenshot, signIn } from './support/browser.js';
import { gatewayIsBuilt, startGateway, type RunningGateway } from './support/gateway.js';

// The catalog's first chat model, served by the fake hub with the generated tiny GGUF as its bytes.
const REPO = 'Qwen/Qwen2.5-0.5B-Instruct-GGUF';
const FILE = 'qwen2.5-0.5b-instruct-q4_k_m.gguf';
const HOLD = 200 * 1024;

describe.skipIf(!gatewayIsBuilt())('first run: download a model from the console and chat with it', () => {
  let hub: FakeHub;
  let gateway: RunningGateway;
  let browser: Browser;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'switchyard-e2e-hub-'));
    await writeTinyLlamaGguf(join(scratch, 'tiny.gguf'), { seed: 11 });
    hub = await startFakeHub();
    hub.addRepo(REPO, { [FILE]: readFileSync(join(scratch, 'tiny.gguf')) });
    gateway = await startGateway(
      { providers: [{ id: 'local-llm', type: 'llamacpp', threads: 1 }] },
      { HF_ENDPOINT: hub.url },
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await hub?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const width of [1440, 1024]) {
    it(`at ${width} px: offers the catalog on the empty Chat page, downloads with pause and resume, chats without a restart, and deletes the file`, async () => {
      const page: Page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await signIn(page, gateway.url, gateway.adminKey);
      await page.getByRole('link', { name: /Chat/ }).click();
      const offer = page.getByRole('region', { name: 'Download a local model' });
      const entry = offer.getByRole('listitem', { name: 'Qwen2.5 0.5B Instruct (Q4_K_M)' });
      const chatBox = page.getByRole('textbox', { name: 'Message' });

      await entry.waitFor();
      await expect.poll(() => offer.getByRole('button', { name: 'Download' }).count()).toBe(4);
      await screenshot(page, `local-models-offer-${width}`);
      hub.holdAt(FILE, HOLD);
      const before = hub.transfers.length;
      await entry.getByRole('button', { name: 'Download' }).click();
      await entry.getByRole('button', { name: 'Pause' }).click();
      await entry.getByTestId('download-status').filter({ hasText: 'paused' }).waitFor();
      await screenshot(page, `local-models-paused-${width}`);
      hub.release();
      await entry.getByRole('button', { name: 'Resume' }).click();
      await chatBox.waitFor({ timeout: 30_000 });
      expect(hub.transfers.slice(before).map((transfer) => transfer.range)).toEqual([undefined, `bytes=${HOLD}-`]);
      await chatBox.fill('Hello there');
      await page.keyboard.press('Enter');
      await page
        .getByRole('article', { name: 'Assistant' })
        .last()
        .getByLabel('Answer statistics')
        .waitFor({ timeout: 60_000 });
      await screenshot(page, `local-models-chat-${width}`);

      await page.getByRole('link', { name: /Models/ }).click();
      const files = page.getByRole('region', { name: 'Local model files' });
      await files.getByRole('row', { name: FILE }).waitFor();
      expect(await files.getByRole('row', { name: FILE }).textContent()).toContain('qwen2.5-0.5b-instruct-q4_k_m');
      await screenshot(page, `local-models-models-page-${width}`);

      // Deleting the file takes the model away; the next width starts from an empty Chat page again.
      page.once('dialog', (dialog) => void dialog.accept());
      await files.getByRole('row', { name: FILE }).getByRole('button', { name: 'Delete' }).click();
      await files.getByRole('row', { name: FILE }).waitFor({ state: 'detached' });
      await page.context().close();
    });
  }
});
