import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type FakeUpstreamOptions } from './fake-upstream.js';
import { startGateway, type StartOptions, type TestGateway } from './start-gateway.js';

/**
 * Helpers that close what they start when the current test finishes, passed or failed. Call them
 * inside a test or a `beforeEach` hook; cleanups run in reverse order, so a gateway closes before
 * the upstream it talks to.
 */

/** Closes `resource` when the current test finishes. */
export function closeAfterTest<T extends { close(): unknown }>(resource: T): T {
  onTestFinished(async () => {
    await resource.close();
  });
  return resource;
}

/** A gateway (see startGateway) that is closed, and its data folder removed, after the test. */
export async function useGateway(options: StartOptions = {}): Promise<TestGateway> {
  return closeAfterTest(await startGateway(options));
}

/** A fake OpenAI-compatible upstream that is closed after the test. */
export async function useFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return closeAfterTest(await startFakeUpstream(options));
}

/** A fresh temporary folder that is removed after the test. */
export function useTempDir(prefix = 'switchyard-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
