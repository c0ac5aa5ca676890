import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/start-gateway.js';

const REPO = join(import.meta.dirname, '../../..');

/** The README's run command, as a user types it, in its own process group so a stop reaches npm's child too. */
function npmRunServe(dataDir: string) {
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: REPO,
    detached: true,
    env: {
      ...process.env,
      GATEWAY_PORT: '0',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  return { child, exited, output: () => output };
}

describe('npm run serve', () => {
  it('starts, stops and starts again on the same checkout and data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-serve-'));
    try {
      for (const attempt of ['first', 'second']) {
        const run = npmRunServe(dataDir);
        try {
          await expect
            .poll(run.output, { timeout: 45_000, message: `${attempt} start` })
            .toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
          const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output())![1];
          // Never silent while it builds or starts: each step says what it is doing first.
          expect(run.output()).toMatch(/Starting the gateway\.\.\.\n[^]*listening on/);
          const models = await fetch(`${url}/models`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
          expect(models.status).toBe(200);
          process.kill(-run.child.pid!, 'SIGINT'); // Ctrl+C in the terminal
          // npm itself ends by the signal; the gateway under it says it shut down cleanly.
          expect(await run.exited).toMatch(/^(exit 0|SIGINT)$/);
          await expect.poll(run.output, { timeout: 10_000 }).toMatch(/SIGINT received/);
          expect(run.output()).not.toMatch(/ENOTDIR|Switchyard failed to start/);
        } finally {
          try {
            process.kill(-run.child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
