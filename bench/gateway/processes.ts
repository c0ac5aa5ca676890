import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Target } from './load.js';

export const ADMIN_KEY = 'sk-sy-bench-admin-0123456789abcdefghij';
const root = join(import.meta.dirname, '../..');

/**
 * The V8 flags `npm run serve` starts Node with (package.json's serve script; the Dockerfile's CMD
 * has the same): the headless gateway is measured as it runs. `--max-semi-space-size=16` keeps the
 * young generation that start-up grows to 64 MiB (for 3 to 6 MiB live) at 32 MiB.
 */
export function serveNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  return scripts.serve.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** Resolves with the first match of `pattern` in the child's output; the output keeps being drained afterwards. */
export function firstLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const match = pattern.exec(output);
      if (match) resolve(match);
    });
    child.once('exit', () => reject(new Error(`process ended before printing ${pattern}: ${output}`)));
  });
}

export interface BenchProcesses {
  upstreamPort: string;
  gatewayUrl: string;
  gateway: ChildProcess;
  /** The bare proxy (bare-proxy.mjs) in front of the same upstream: the floor to compare with. */
  bareProxyUrl: string;
  bareProxy: ChildProcess;
  /** A minimal Fastify proxy (fastify-proxy.mjs) in front of the same upstream: the framework's floor. */
  fastifyProxyUrl: string;
  fastifyProxy: ChildProcess;
  /** A key with a rate limit no benchmark reaches. */
  createKey(): Promise<string>;
  stop(): Promise<void>;
}

const cachedModel =
  '  - id: bench-cached\n    provider: up\n    upstream_model: bench\n    capabilities: [chat]\n    pricing: { input_per_million: 1, output_per_million: 2 }\n    cache: { mode: exact, ttl_s: 3600 }\n';

/**
 * The fast fake upstream and the built gateway (a priced model `bench-model` routed to it, and for the
 * cache bench `bench-cached`, the same with a response cache) as two
 * processes on port 0 with a fresh data folder. `gatewayScript` replaces the CLI (the soak uses one
 * that reports its memory over IPC); `nodeArgs` are `npm run serve`'s V8 flags unless given; `extraEnv` adds to the gateway's environment (team mode's Redis).
 */
export async function startBenchProcesses(
  gatewayScript = join(root, 'dist/gateway/src/cli.js'),
  nodeArgs: string[] = serveNodeFlags(),
  extraEnv: Record<string, string> = {},
  /** How long the upstream takes to answer, and whether `bench-cached` exists (the cache benchmark; older builds refuse its `cache`). */
  cacheBench: { upstreamDelayMs: number } | undefined = undefined,
): Promise<BenchProcesses> {
  const upstreamDelayMs = cacheBench?.upstreamDelayMs ?? 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const upstream = spawn(process.execPath, [join(import.meta.dirname, 'fast-upstream.mjs'), String(upstreamDelayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const upstreamPort = (await firstLine(upstream, /^(\d+)\n/))[1];
  const bareProxy = spawn(process.execPath, [join(import.meta.dirname, 'bare-proxy.mjs'), upstreamPort], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bareProxyUrl = `http://127.0.0.1:${(await firstLine(bareProxy, /^(\d+)\n/))[1]}`;
  const fastifyProxy = spawn(process.execPath, [join(import.meta.dirname, 'fastify-proxy.mjs'), upstreamPort], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const fastifyProxyUrl = `http://127.0.0.1:${(await firstLine(fastifyProxy, /^(\d+)\n/))[1]}`;
  const config = join(dataDir, 'config.yaml');
  writeFileSync(
    config,
    `server:\n  warm_engines: false\nproviders:\n  - id: up\n    type: openai\n    base_url: http://127.0.0.1:${upstreamPort}/v1\nmodels:\n  - id: bench-model\n    provider: up\n    upstream_model: bench\n    capabilities: [chat]\n    pricing: { input_per_million: 1, output_per_million: 2 }\n${cacheBench ? cachedModel : ''}`,
  );
  const gateway = spawn(process.execPath, [...nodeArgs, gatewayScript], {
    env: {
      ...process.env,
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_CONFIG: config,
      GATEWAY_PORT: '0',
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_LOG_LEVEL: 'error',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const gatewayUrl = (await firstLine(gateway, /listening on (http:\/\/[\d.]+:\d+)/))[1];
  return {
    upstreamPort,
    gatewayUrl,
    gateway,
    bareProxyUrl,
    bareProxy,
    fastifyProxyUrl,
    fastifyProxy,
    async createKey() {
      const created = await fetch(`${gatewayUrl}/account/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', rpm_limit: 10_000_000 }),
      });
      return ((await created.json()) as { key: string }).key;
    },
    async stop() {
      const children = [gateway, bareProxy, fastifyProxy, upstream];
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Chat completions on `gatewayUrl` as the key `key`, with `body`. */
export function chatTarget(gatewayUrl: string, key: string, body: string): Target {
  return {
    origin: gatewayUrl,
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body,
  };
}

/** The chat body of every request a cache hit: to the cached route (`bench-cached`), at temperature 0. */
export function cachedChatBody(stream: boolean): string {
  return JSON.stringify({ ...(JSON.parse(chatBody(stream)) as object), model: 'bench-cached', temperature: 0 });
}

/** The chat body the benchmarks send, plain or streamed (with the usage chunk). */
export function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: 'bench-model',
    messages: [{ role: 'user', content: 'Say hello.' }],
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  });
}
