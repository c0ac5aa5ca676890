import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGithub, type FakeGithub } from '../gateway/test/support/fake-github.js';
import { launchChromium, screenshot, signIn } from './support/browser.js';
import { gatewayIsBuilt, startGateway, type RunningGateway } from './support/gateway.js';
import { systemTessdata } from '../gateway/test/support/system-tessdata.js';

const tessdata = systemTessdata();
const REPO = 'tesseract-ocr/tessdata_fast';
// One language per width, neither installed here; GitHub is the fake, the bytes the machine's French model.
const ADDED: Record<number, { code: string; name: string }> = {
  1440: { code: 'ell', name: 'Greek' },
  1024: { code: 'pol', name: 'Polish' },
};

describe.skipIf(!gatewayIsBuilt() || !tessdata)('the console adds an OCR language with one click', () => {
  let github: FakeGithub;
  let gateway: RunningGateway;
  let browser: Browser;

  beforeAll(async () => {
    github = await startFakeGithub();
    const model = readFileSync(join(tessdata as string, 'fra.traineddata'));
    for (const { code } of Object.values(ADDED)) github.addFile(REPO, '4.1.0', `${code}.traineddata`, model);
    gateway = await startGateway({}, { GITHUB_API_URL: github.url });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await github?.close();
  });

  for (const width of [1440, 1024]) {
    it(`at ${width} px: lists installed and downloadable languages, adds one, and the OCR page lists it`, async () => {
      const { code, name } = ADDED[width];
      const page: Page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await signIn(page, gateway.url, gateway.adminKey, '/ui/models');
      const section = page.getByRole('region', { name: 'OCR languages' });
      const installed = section.getByRole('list', { name: 'Installed OCR languages' });
      await installed.getByRole('listitem', { name: 'French' }).waitFor();
      expect(await installed.getByRole('listitem', { name: 'French' }).textContent()).toContain('Debian package');
      expect(await installed.getByRole('listitem', { name, exact: true }).count()).toBe(0);

      await section.getByRole('searchbox', { name: 'Find a language' }).fill(name.slice(0, 4));
      const entry = section
        .getByRole('list', { name: 'OCR languages to download' })
        .getByRole('listitem', { name, exact: true });
      await entry.waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `ocr-languages-available-${width}`);
      await entry.getByRole('button', { name: 'Add' }).click();
      await installed.getByRole('listitem', { name, exact: true }).waitFor({ timeout: 20_000 });
      expect(await installed.getByRole('listitem', { name, exact: true }).textContent()).toContain('downloaded');
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `ocr-languages-added-${width}`);

      await page.getByRole('link', { name: /OCR/ }).first().click();
      const listed = page.getByTestId('ocr-languages');
      await expect.poll(async () => (await listed.textContent()) ?? '', { timeout: 20_000 }).toContain(code);
      await screenshot(page, `ocr-languages-ocr-page-${width}`);
      // Its "Add a language" link leads back to the catalog's OCR languages.
      await page.getByRole('link', { name: 'Add a language' }).click();
      await section
        .getByRole('list', { name: 'Installed OCR languages' })
        .getByRole('listitem', { name, exact: true })
        .waitFor();
      expect((await section.boundingBox())!.y).toBeLessThan(200);
    });
  }
});
