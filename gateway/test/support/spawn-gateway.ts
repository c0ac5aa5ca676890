import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ADMIN_KEY } from './start-gateway.js';

const CLI = join(import.meta.dirname, '../../../dist/gateway/src/cli.js');

export interface SpawnedGateway {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

/**
 * The built gateway (`dist/gateway/src/cli.js`) as its own process on port 0, for what only a real
 * process shows: kill -9, SIGTERM, a restart on the same data folder. Needs `npm run build:gateway`.
 */
export async function spawnGateway(
  dataDir: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
  args: string[] = [],
  nodeArgs: string[] = [],
): Promise<SpawnedGateway> {
  const configPath = join(dataDir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({ ...config, server: { warm_engines: false, ...(config.server as object | undefined) } }),
  );
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
    env: {
      ...process.env,
      GATEWAY_LOG_LEVEL: 'silent',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_CONFIG: configPath,
      GATEWAY_PORT: '0',
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`the gateway exited (${code}) before listening: ${stderr}`)));
  });
  return {
    url,
    child,
    exited,
    output: () => ({ stdout, stderr }),
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${ADMIN_KEY}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
  };
}
