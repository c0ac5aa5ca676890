/**
 * Gateway overhead: the same chat request sent straight to a fast upstream and through the gateway
 * (auth, a per-key rate limit, the usage ledger and the request log all on), at a fixed rate and at
 * full load, plain and streamed. Prints requests/s, p50/p99 and the latency the gateway adds.
 *
 *   npx tsx bench/gateway/run.ts [--seconds 5] [--rate 1000] [--concurrency 32]
 */
import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';
import { measureLedgerCost } from './ledger-cost.js';
import { ADMIN_KEY, chatBody, startBenchProcesses } from './processes.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--seconds') ?? 5);
const rate = Number(args.get('--rate') ?? 1000);
const concurrency = Number(args.get('--concurrency') ?? 32);

function summary(result: LoadResult) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return { rps: result.requests / result.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: result.errors };
}

async function main() {
  const processes = await startBenchProcesses();
  const { upstreamPort, gatewayUrl } = processes;
  try {
    const key = await processes.createKey();
    const body = chatBody;
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
    const ledger = await measureLedgerCost();
    const micros = (value: number) => `${value.toFixed(1)} µs`;
    console.log(`\nUsage ledger, cost per entry written before its answer (${ledger.entries} entries, WAL, synchronous=NORMAL):`);
    console.log(`  one answer at a time ${micros(ledger.oneAtATimeMicros)}, 32 answers sharing a commit ${micros(ledger.groupOf32Micros)}; buffered 200 to a transaction (not durable) ${micros(ledger.bufferedMicros)}`);
  } finally {
    await processes.stop();
  }
}

await main();
