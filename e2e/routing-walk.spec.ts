import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, setTheme, VIEWPORTS } from './support/layout.js';

const SHOTS = '/tmp/shots2';

/** How far the Pricing column's heading reaches past the box the table scrolls in (0: in view). */
const pricingHidden = (page: Page) =>
  page.evaluate(`(() => {
    const heading = [...document.querySelectorAll('main th')].find((th) => th.textContent.trim() === 'Pricing');
    let box = heading.closest('table').parentElement;
    while (box && !/(auto|scroll|hidden)/.test(getComputedStyle(box).overflowX)) box = box.parentElement;
    const visible = (box ?? document.documentElement).getBoundingClientRect().right;
    return Math.max(0, Math.round(heading.getBoundingClientRect().right - visible));
  })()`) as Promise<number>;
const BALANCED = 'svc-balanced';

/**
 * A route balanced over two deployments on the Models page, after traffic: each deployment's share,
 * requests, latency and spend are shown, and the page fits at 1440 and 1024 px in both themes.
 * Screenshots go to /tmp/shots2 for review.
 */
describe('a balanced route on the Models page', () => {
  const session = useConsoleSession({
    signInPath: '/ui/models',
    failurePrefix: 'routing',
    config: (upstreamUrl) => ({
      providers: [
        { id: 'fake', type: 'openai', base_url: upstreamUrl, api_key: 'sk-upstream' },
        { id: 'fake-eu', type: 'openai', base_url: upstreamUrl, api_key: 'sk-upstream' },
      ],
    }),
    models: [
      {
        id: BALANCED,
        capabilities: ['chat'],
        routing_strategy: 'weighted',
        deployments: [
          { provider: 'fake', upstream_model: 'fake-chat', weight: 3, rpm: 600 },
          { provider: 'fake-eu', upstream_model: 'fake-chat', weight: 1 },
        ],
        pricing: { input_per_million: 1, output_per_million: 2 },
      },
    ],
  });

  it('shows each deployment with its traffic, and fits', async () => {
    const { page, stack } = session;
    mkdirSync(SHOTS, { recursive: true });
    for (let i = 0; i < 12; i++) {
      const response = await session.api('/v1/chat/completions', stack.gateway.adminKey, {
        method: 'POST',
        body: JSON.stringify({ model: BALANCED, messages: [{ role: 'user', content: `hello ${i}` }] }),
      });
      expect(response.status).toBe(200);
    }
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: BALANCED });
    const deployments = row.getByTestId('deployment');
    await expect.poll(() => deployments.count()).toBe(2);
    const texts = await deployments.allTextContents();
    expect(texts[0]).toContain('75 %');
    expect(texts[1]).toContain('25 %');
    // Weighted at random: the smaller one may have served a single request ("1 request").
    const requests = texts.map((text) => Number(/(\d+) requests?\b/.exec(text)?.[1]));
    expect(requests[0] + requests[1]).toBe(12);
    expect(texts[0]).toMatch(/\/600 rpm/);
    await row.scrollIntoViewIfNeeded();
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.locator(`html[data-theme="${theme}"]`).waitFor();
        await row.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/models-balanced-${viewport.width}-${theme}.png` });
        expect(await layoutProblems(page), `models ${viewport.width} ${theme}`).toEqual([]);
        // The deployments wrap in their column: State and Pricing are in view without scrolling the table.
        expect(await pricingHidden(page), `Pricing at ${viewport.width}`).toBe(0);
      }
    }
  });
});
