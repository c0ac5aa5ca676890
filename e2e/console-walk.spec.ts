import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, setTheme, VIEWPORTS } from './support/layout.js';

const SHOTS = '/tmp/shots2';

/**
 * The pages recent work touched (Settings, Status, Request log with the playground badge and the
 * Instance field, Batches with several lines, the Chat header), at 1440 and 1024 px, light and dark:
 * nothing scrolls sideways or clips an action. Screenshots go to /tmp/shots2 for review.
 */
describe('walk through the recently changed pages', () => {
  const session = useConsoleSession({ signInPath: '/ui/chat', failurePrefix: 'walk' });

  async function visit(page: Page, link: RegExp, ready: () => Promise<unknown>, name: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await ready();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.locator(`html[data-theme="${theme}"]`).waitFor();
        expect(await layoutProblems(page), `${name} ${viewport.width} ${theme}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/${name}-${viewport.width}-${theme}.png` });
      }
    }
  }

  it('Chat, Batches, Request log, Status and Settings fit and read well', async () => {
    const { page } = session;
    mkdirSync(SHOTS, { recursive: true });
    try {
      // A playground chat, for the Chat header and the request log's playground badge.
      await page.getByRole('textbox', { name: 'Message' }).fill('hello from the walk');
      await page.keyboard.press('Enter');
      await page.getByRole('article', { name: 'Assistant' }).last().getByLabel('Answer statistics').waitFor();
      await visit(page, /Chat/, async () => undefined, 'chat');

      // A batch of three lines, run to completion.
      await page.getByRole('link', { name: /Batches/ }).click();
      for (const [i, prompt] of ['red apple', 'green pear', 'blue plum'].entries()) {
        if (i > 0) await page.getByRole('button', { name: '+ Add a request' }).click();
        await page.getByLabel(`Custom id ${i + 1}`).fill(`fruit-${i + 1}`);
        await page.getByLabel(`Prompt ${i + 1}`).fill(prompt);
      }
      await page.getByRole('button', { name: 'Create batch' }).click();
      await visit(
        page,
        /Batches/,
        () =>
          page
            .getByTestId('batches-table')
            .getByTestId('batch-status')
            .filter({ hasText: 'completed' })
            .first()
            .waitFor({ timeout: 30_000 }),
        'batches',
      );

      await visit(
        page,
        /Request log/,
        () => page.getByTestId('request-log').getByText('playground').first().waitFor(),
        'requests',
      );
      const chatRow = page
        .getByTestId('request-log')
        .getByRole('row', { name: /POST \/v1\/chat\/completions 200/ })
        .first();
      const drawer = page.getByRole('dialog', { name: 'POST /v1/chat/completions' });
      // The drawer is modal: the theme is switched with it closed.
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.locator(`html[data-theme="${theme}"]`).waitFor();
        await chatRow.focus();
        await page.keyboard.press('Enter');
        await drawer.getByText('Instance').first().waitFor();
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          await page.screenshot({ path: `${SHOTS}/request-drawer-${viewport.width}-${theme}.png` });
        }
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
      }

      await visit(
        page,
        /Status/,
        () => page.getByTestId('providers-table').getByRole('row', { name: 'fake' }).waitFor(),
        'status',
      );
      await visit(
        page,
        /Settings/,
        () => page.getByRole('row', { name: 'fake' }).getByTestId('provider-state').waitFor(),
        'settings',
      );

      // While the key's account loads, Owner-only links are placeholders (held here until screenshotted).
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/account/me', async (route) => {
        await held;
        await route.continue();
      });
      await page.reload();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByTestId('nav-placeholder').first().waitFor();
      expect(await nav.getByRole('link', { name: /Settings|Keys|Request log/ }).count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/nav-loading.png` });
      release();
      await page
        .locator('nav[aria-label="Main"][aria-busy="false"]')
        .getByRole('link', { name: /Settings/ })
        .waitFor();
      await page.unroute('**/account/me');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
