/**
 * Gateway overhead: the same chat request sent straight to a fast upstream and through the gateway
 * (auth, a per-key rate limit, the usage ledger and the request log all on), at a fixed rate and at
 * full load, plain and streamed. Prints requests/s, p50/p99 and the latency the gateway adds.
 *
 *   npx tsx bench/gateway/run.ts [--seconds 5] [--rate 1000] [--concurrency 32]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--seconds') ?? 5);
const rate = Number(args.get('--rate') ?? 1000);
const concurrency = Number(args.get('--concurrency') ?? 32);
const root = join(import.meta.dirname, '../..');
const ADMIN_KEY = 'sk-sy-bench-admin-0123456789abcdefghij';

/** Resolves with the first match of `pattern` in the child's output; the output keeps being drained afterwards. */
function firstLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
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

function summary(result: LoadResult) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return { rps: result.requests / result.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: result.errors };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const upstream = spawn(process.execPath, [join(import.meta.dirname, 'fast-upstream.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const upstreamPort = (await firstLine(upstream, /^(\d+)\n/))[1];
  const config = join(dataDir, 'config.yaml');
  writeFileSync(config, `server:\n  warm_engines: false\nproviders:\n  - id: up\n    type: openai\n    base_url: http://127.0.0.1:${upstreamPort}/v1\nmodels:\n  - id: bench-model\n    provider: up\n    upstream_model: bench\n    capabilities: [chat]\n    pricing: { input_per_million: 1, output_per_million: 2 }\n`);
  const gateway = spawn(process.execPath, [join(root, 'dist/gateway/src/cli.js')], {
    env: { ...process.env, GATEWAY_DATA_DIR: dataDir, GATEWAY_CONFIG: config, GATEWAY_PORT: '0', GATEWAY_ADMIN_KEY: ADMIN_KEY, GATEWAY_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const gatewayUrl = (await firstLine(gateway, /listening on (http:\/\/[\d.]+:\d+)/))[1];
  try {
    const created = await fetch(`${gatewayUrl}/account/keys`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', rpm_limit: 10_000_000 }) });
    const { key } = (await created.json()) as { key: string };
    const body = (stream: boolean) => JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Say hello.' }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) });
    const direct = (stream: boolean): Target => ({ origin: `http://127.0.0.1:${upstreamPort}`, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: body(stream) });
    const through = (stream: boolean): Target => ({ origin: gatewayUrl, path: '/v1/chat/completions', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body(stream) });

    const rows: string[] = [];
    const header = `${'scenario'.padEnd(34)} ${'direct rps'.padStart(10)} ${'gw rps'.padStart(8)} ${'direct p50'.padStart(10)} ${'gw p50'.padStart(8)} ${'added p50'.padStart(9)} ${'direct p99'.padStart(10)} ${'gw p99'.padStart(8)} ${'added p99'.padStart(9)} ${'errors'.padStart(6)}`;
    for (const stream of [false, true]) {
      for (const mode of ['fixed', 'full'] as const) {
        const run = (target: Target) => (mode === 'fixed' ? fixedRate(target, rate, seconds) : fullLoad(target, concurrency, seconds));
        // Each scenario runs once unmeasured first, so connections, JIT and caches are warm: steady state is measured.
        await run(direct(stream));
        const a = summary(await run(direct(stream)));
        await run(through(stream));
        const b = summary(await run(through(stream)));
        const name = `${stream ? 'streamed' : 'plain'}, ${mode === 'fixed' ? `${rate} req/s` : `full load (${concurrency} conns)`}`;
        const ms = (value: number) => value.toFixed(3).padStart(8);
        rows.push(`${name.padEnd(34)} ${a.rps.toFixed(0).padStart(10)} ${b.rps.toFixed(0).padStart(8)} ${ms(a.p50).padStart(10)} ${ms(b.p50)} ${ms(b.p50 - a.p50).padStart(9)} ${ms(a.p99).padStart(10)} ${ms(b.p99)} ${ms(b.p99 - a.p99).padStart(9)} ${String(a.errors + b.errors).padStart(6)}`);
      }
    }
    const usage = (await (await fetch(`${gatewayUrl}/account/usage`, { headers: { 'x-api-key': ADMIN_KEY } })).json()) as { usage: { total_requests: number } };
    console.log(`\nGateway overhead (latencies in ms; ${seconds} s per run; ${usage.usage.total_requests} requests in the usage ledger)\n`);
    console.log(header);
    for (const row of rows) console.log(row);
  } finally {
    gateway.kill('SIGTERM');
    upstream.kill('SIGTERM');
    await Promise.all([once(gateway, 'exit'), once(upstream, 'exit')]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
