/**
 * Starts the built headless gateway (`node dist/gateway/src/cli.js`) as a child process on a
 * free port with a temporary data folder, config file and known admin key; stops it with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const GATEWAY_CLI = join(REPO_ROOT, 'dist', 'gateway', 'src', 'cli.js');
export const CONSOLE_INDEX = join(REPO_ROOT, 'dist', 'renderer', 'index.html');
export const ADMIN_KEY = 'sk-sy-e2e-admin-0123456789abcdef';

export interface GatewayConfig {
  providers?: Record<string, unknown>[];
  models?: Record<string, unknown>[];
  [key: string]: unknown;
}

export interface RunningGateway {
  url: string;
  adminKey: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

export function gatewayIsBuilt(): boolean {
  return existsSync(GATEWAY_CLI) && existsSync(CONSOLE_INDEX);
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForStatus(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The gateway exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/status`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    // Often: each spec waits for this start, and a refused connection costs next to nothing.
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`The gateway did not answer /status with 200 within ${timeoutMs} ms:\n${output()}`);
}

export async function startGateway(
  config: GatewayConfig = {},
  env: Record<string, string> = {},
): Promise<RunningGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-e2e-'));
  const configPath = join(dataDir, 'config.json');
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const port = await freePort();
  const child = spawn(process.execPath, [GATEWAY_CLI], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(port),
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_CONFIG: configPath,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await waitForStatus(url, child, () => log, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    adminKey: ADMIN_KEY,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
