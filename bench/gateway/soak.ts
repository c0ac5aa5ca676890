/**
 * Soak: the gateway at a fixed rate for minutes, half the requests streamed, against the fast fake
 * upstream. Reports answers and errors by status, latency, and the gateway's memory (RSS and V8 heap,
 * sampled every few seconds; start and end after a full GC) so a leak shows as growth.
 *
 *   npx tsx bench/gateway/soak.ts [--soak-seconds 60] [--soak-rate 50]
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { Pool } from 'undici';
import { percentile } from './load.js';
import { ADMIN_KEY, chatBody, startBenchProcesses } from './processes.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--soak-seconds') ?? 60);
const rate = Number(args.get('--soak-rate') ?? 50);
const SAMPLE_EVERY_MS = 5_000;
const WARM_UP_SECONDS = 5;

type Memory = NodeJS.MemoryUsage;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main() {
  const processes = await startBenchProcesses(join(import.meta.dirname, 'instrumented-gateway.mjs'), ['--expose-gc']);
  const memory = async (): Promise<Memory> => {
    const answer = once(processes.gateway, 'message') as Promise<[Memory]>;
    processes.gateway.send('memory');
    return (await answer)[0];
  };
  const key = await processes.createKey();
  const pool = new Pool(processes.gatewayUrl, { connections: 64, pipelining: 1 });
  const byStatus = new Map<string, number>();
  const latencies = { plain: [] as number[], streamed: [] as number[] };
  let answered = 0;

  const send = async (stream: boolean, counted: boolean) => {
    const started = performance.now();
    let outcome: string;
    try {
      const response = await pool.request({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: chatBody(stream),
      });
      const text = await response.body.text();
      outcome = String(response.statusCode);
      // A stream that ends without [DONE] (or with an error frame) is an error even with status 200.
      if (
        response.statusCode === 200 &&
        stream &&
        (!text.trimEnd().endsWith('data: [DONE]') || text.includes('"object":"error"'))
      )
        outcome = '200, stream broken';
      if (counted && outcome === '200') {
        answered++;
        (stream ? latencies.streamed : latencies.plain).push(performance.now() - started);
      }
    } catch (error) {
      outcome = `no answer (${(error as Error).message})`;
    }
    if (counted) byStatus.set(outcome, (byStatus.get(outcome) ?? 0) + 1);
  };

  const drive = async (durationSeconds: number, counted: boolean, onTick?: () => void) => {
    const total = Math.round(rate * durationSeconds);
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / rate - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      onTick?.();
      const request = send(i % 2 === 1, counted).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
    return (performance.now() - started) / 1000;
  };

  try {
    await drive(WARM_UP_SECONDS, false);
    const start = await memory();
    const samples: Memory[] = [start];
    let nextSample = performance.now() + SAMPLE_EVERY_MS;
    let sampling: Promise<void> = Promise.resolve();
    const elapsed = await drive(seconds, true, () => {
      if (performance.now() < nextSample) return;
      nextSample += SAMPLE_EVERY_MS;
      sampling = sampling.then(async () => void samples.push(await memory()));
    });
    await sampling;
    const end = await memory();
    samples.push(end);
    const usage = (await (
      await fetch(`${processes.gatewayUrl}/account/usage`, { headers: { 'x-api-key': ADMIN_KEY } })
    ).json()) as { usage: { total_requests: number } };

    const sent = Math.round(rate * seconds);
    console.log(
      `\nSoak: ${sent} chat requests at ${rate}/s for ${seconds} s (${elapsed.toFixed(1)} s), half streamed, after a ${WARM_UP_SECONDS} s warm-up`,
    );
    console.log(
      `  answered 200: ${answered} (${(answered / elapsed).toFixed(0)}/s); usage ledger holds ${usage.usage.total_requests} entries (warm-up and key set-up included)`,
    );
    const errors = [...byStatus].filter(([status]) => status !== '200');
    console.log(
      `  errors by status: ${errors.length === 0 ? 'none' : errors.map(([status, count]) => `${status}: ${count}`).join(', ')}`,
    );
    for (const [name, values] of Object.entries(latencies)) {
      const sorted = values.sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(8)} p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(2)} ms`,
      );
    }
    const peak = (field: 'rss' | 'heapUsed') => Math.max(...samples.map((sample) => sample[field]));
    console.log(
      `  gateway RSS  ${mb(start.rss)} MB -> ${mb(end.rss)} MB (peak ${mb(peak('rss'))} MB, growth ${mb(end.rss - start.rss)} MB)`,
    );
    console.log(
      `  gateway heap ${mb(start.heapUsed)} MB -> ${mb(end.heapUsed)} MB after GC (peak sampled ${mb(peak('heapUsed'))} MB, growth ${mb(end.heapUsed - start.heapUsed)} MB)`,
    );
    console.log(
      `  samples (RSS MB, every ${SAMPLE_EVERY_MS / 1000} s): ${samples.map((sample) => mb(sample.rss)).join(' ')}`,
    );
  } finally {
    await pool.close();
    await processes.stop();
  }
}

await main();
