import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { firstLine, serveNodeFlags } from './processes.js';
import { rssMiB } from './process-stats.js';

const root = join(import.meta.dirname, '../..');

/**
 * Resident memory of the headless gateway with its default configuration (local OCR, embeddings,
 * speech and LLM providers; engines warmed at start), once it reports ready and has idled `idleMs`.
 */
export async function measureIdleMemory(idleMs = 5_000): Promise<{ readyMs: number; rssMiB: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-idle-'));
  const started = performance.now();
  const gateway = spawn(process.execPath, [...serveNodeFlags(), join(root, 'dist/gateway/src/cli.js')], {
    env: { ...process.env, GATEWAY_DATA_DIR: dataDir, GATEWAY_PORT: '0', GATEWAY_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = (await firstLine(gateway, /listening on (http:\/\/[\d.]+:\d+)/))[1];
    while ((await fetch(`${url}/health/readiness`)).status !== 200) await sleep(100);
    const readyMs = performance.now() - started;
    await sleep(idleMs);
    return { readyMs, rssMiB: rssMiB(gateway.pid!) };
  } finally {
    gateway.kill('SIGTERM');
    if (gateway.exitCode === null) await once(gateway, 'exit');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
