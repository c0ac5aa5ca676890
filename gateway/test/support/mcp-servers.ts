import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import type { McpServerConfig } from '../../src/wire/mcp-server-schemas.js';

const require = createRequire(import.meta.url);
/** The reference servers from the npm registry (devDependencies), run with this Node. */
export const EVERYTHING_SERVER = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FIXTURE_SERVER = fileURLToPath(new URL('./mcp-fixture-server.ts', import.meta.url));

/** server-everything over stdio; `marker` (an extra argument it ignores) finds its process. */
export function everythingStdio(id = 'everything', marker = `marker-${id}-${process.pid}`): McpServerConfig {
  return { id, command: process.execPath, args: [EVERYTHING_SERVER, 'stdio', marker] };
}

/** server-filesystem serving `folder`. */
export function filesystemStdio(folder: string, id = 'files'): McpServerConfig {
  return { id, command: process.execPath, args: [FILESYSTEM_SERVER, folder] };
}

/** gateway/test/support/mcp-fixture-server.ts: a broken tool schema, a changing tool list, sized results. */
export function fixtureStdio(id = 'fixture'): McpServerConfig {
  return { id, command: process.execPath, args: [FIXTURE_SERVER] };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * server-everything over HTTP on a free port of 127.0.0.1 (Streamable HTTP at /mcp, or the legacy
 * HTTP+SSE transport at /sse), stopped after the test.
 */
export async function useEverythingHttp(
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<{ url: string; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`, port };
}

/** The ids of the running processes whose command line contains `text` (Linux's /proc). */
export function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether a process with this id runs (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
