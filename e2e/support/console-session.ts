import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium, newConsolePage, screenshot, signIn } from './browser.js';
import type { FakeUpstreamOptions } from '../../gateway/test/support/fake-upstream.js';
import { startFakeStack, type FakeStack } from './fake-stack.js';

/** A gateway on a fake upstream and one Chromium page on its console, for the whole spec file. */
export interface ConsoleSession {
  stack: FakeStack;
  browser: Browser;
  page: Page;
  /** A request straight to the gateway with `key`, outside the browser. */
  api(path: string, key: string, init?: RequestInit): Promise<Response>;
}

export interface ConsoleSessionSetup {
  models?: Record<string, unknown>[];
  config?: Parameters<typeof startFakeStack>[1];
  /** Options of the fake upstream (e.g. `toolLoop`). */
  upstream?: FakeUpstreamOptions;
  /** The console page to sign in on; false leaves the page signed out. */
  signInPath?: string | false;
  /** Prefix of the screenshot taken when a test fails. */
  failurePrefix?: string;
}

/** Starts the stack and the browser before the spec's tests, screenshots failures, and closes both after. */
export function useConsoleSession(setup: ConsoleSessionSetup = {}): ConsoleSession {
  const session = {
    api: (path: string, key: string, init: RequestInit = {}) =>
      fetch(`${session.stack.gateway.url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
      }),
  } as ConsoleSession;
  beforeAll(async () => {
    session.stack = await startFakeStack(setup.models ?? [], setup.config ?? {}, setup.upstream);
    session.browser = await launchChromium();
    session.page = await newConsolePage(session.browser);
    if (setup.signInPath !== false)
      await signIn(session.page, session.stack.gateway.url, session.stack.gateway.adminKey, setup.signInPath);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(
        session.page,
        `${setup.failurePrefix ?? 'failed'}-${context.task.name.split(' ').slice(0, 3).join('-')}`,
      );
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.stack?.stop();
  });
  return session;
}
