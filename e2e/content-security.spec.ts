import { describe, expect, it } from 'vitest';
import { cspViolations, signIn } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';

describe('the console and the docs under their Content-Security-Policy', () => {
  const session = useConsoleSession({ signInPath: false, failurePrefix: 'failed-csp' });

  it('serves /ui/ with a strict policy, and every page works under it without a violation', async () => {
    const response = await session.page.goto(`${session.stack.gateway.url}/ui/`);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');

    await signIn(session.page, session.stack.gateway.url, session.stack.gateway.adminKey);
    const links = session.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    const count = await links.count();
    for (let i = 0; i < count; i++) {
      await links.nth(i).click();
      await session.page.getByRole('heading', { level: 1 }).waitFor();
    }

    // Generated images are gateway files fetched with the key and shown through object URLs.
    await session.page.getByRole('link', { name: /Images/ }).click();
    await session.page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse at dusk');
    await session.page.getByLabel('Size').selectOption('256x256');
    await session.page.getByRole('button', { name: 'Generate' }).click();
    // Polled from outside the page: the console's CSP (no eval) refuses waitForFunction's predicate.
    await expect
      .poll(
        () =>
          session.page.evaluate(`(() => {
      const img = document.querySelector('[data-testid="generated-image"] img');
      return !!img && img.complete && img.naturalWidth > 0;
    })()`),
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(cspViolations(session.page)).toEqual([]);
  });

  it('carries the same policy in the page itself (a meta), less frame-ancestors, which only a header can set', async () => {
    const response = await fetch(`${session.stack.gateway.url}/ui/`);
    const header = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const directives = (policy: string) =>
      policy
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
        .sort();
    expect(directives(meta)).toEqual(directives(header).filter((d) => !d.startsWith('frame-ancestors')));
    // Before the first script, so it governs every one.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
  });

  it('an inline script injected into the console is refused by the policy', async () => {
    await session.page.goto(`${session.stack.gateway.url}/ui/chat`);
    await session.page.getByRole('navigation', { name: 'Main' }).waitFor();
    const ran = await session.page.evaluate(`(() => {
      window.__injected = false;
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.appendChild(script);
      return window.__injected;
    })()`);
    expect(ran).toBe(false);
    expect(cspViolations(session.page).some((text) => /script/i.test(text))).toBe(true);
    cspViolations(session.page).length = 0;
  });

  it('the API docs render under their own policy', async () => {
    const response = await session.page.goto(`${session.stack.gateway.url}/docs/`);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await session.page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(cspViolations(session.page)).toEqual([]);
  });
});
