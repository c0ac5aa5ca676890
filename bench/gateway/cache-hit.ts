import { fixedRateInTurns, fullLoad, percentile, takingTurns, type LoadResult, type Target } from './load.js';
import { cpuMicros } from './process-stats.js';
import { startBenchProcesses } from './processes.js';
import { warmUp } from './warm-up.js';

type Via = 'bare' | 'gateway' | 'hit';
const VIAS: Via[] = ['bare', 'gateway', 'hit'];

export interface CacheHitOptions {
  seconds: number;
  rate: number;
  concurrency: number;
  streamConcurrency: number;
  gatewayScript?: string;
  /** A second run's upstream answers after this many milliseconds, as a model takes time (0: no second run). */
  upstreamDelayMs: number;
}

interface Measured {
  rps: number;
  p50: number;
  /** CPU of the process in between (the bare proxy, or the gateway) per answered request, in microseconds. */
  cpuPerRequest: number;
  errors: number;
}

/** A run's p50 and errors (no CPU figure: the targets took turns within it). */
const latencyOf = (result: LoadResult): Omit<Measured, 'rps'> => ({
  p50: percentile(
    [...result.latencies].sort((a, b) => a - b),
    50,
  ),
  cpuPerRequest: NaN,
  errors: result.errors,
});

const fmt = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/**
 * The response cache's promise (issue 38 §2): a hit answers at least as fast as the bare proxy.
 * Side by side in one run on the same processes: the bare Node proxy in front of the fast upstream,
 * Switchyard on an uncached route, and Switchyard answering every request from its cache (the same
 * body at temperature 0 on `bench-cached`, stored by the first request), plain and streamed. CPU per
 * request is printed too: on a shared machine it moves less than throughput and latency do.
 */
export async function measureCacheHits(options: CacheHitOptions): Promise<string[][]> {
  const rows = await measureOn(options, 0);
  if (options.upstreamDelayMs > 0) {
    const slow = await measureOn(options, options.upstreamDelayMs);
    rows.push(
      ...slow
        .slice(3, 7)
        .map(([label, ...rest]) => [`${label}, upstream taking ${options.upstreamDelayMs} ms`, ...rest]),
    );
  }
  return rows;
}

async function measureOn(options: CacheHitOptions, upstreamDelayMs: number): Promise<string[][]> {
  const processes = await startBenchProcesses(options.gatewayScript, undefined, {}, { upstreamDelayMs });
  try {
    const key = await processes.createKey();
    const target = (via: Via, stream: boolean): Target => ({
      origin: via === 'bare' ? processes.bareProxyUrl : processes.gatewayUrl,
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', ...(via === 'bare' ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify({
        model: via === 'hit' ? 'bench-cached' : 'bench-model',
        temperature: 0,
        messages: [{ role: 'user', content: 'Say hello.' }],
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
      }),
    });
    if (upstreamDelayMs === 0)
      await warmUp(
        VIAS.flatMap((via) => [target(via, false), target(via, true)]),
        [processes.gateway.pid!, processes.bareProxy.pid!],
        options.concurrency,
      );
    const measure = async (run: (t: Target) => Promise<LoadResult>, stream: boolean) => {
      const results = {} as Record<Via, Measured>;
      for (const via of VIAS) {
        const pid = via === 'bare' ? processes.bareProxy.pid! : processes.gateway.pid!;
        await run(target(via, stream));
        const cpuBefore = cpuMicros(pid);
        const result = await run(target(via, stream));
        results[via] = {
          rps: result.requests / result.seconds,
          p50: percentile(
            [...result.latencies].sort((a, b) => a - b),
            50,
          ),
          cpuPerRequest: result.requests ? (cpuMicros(pid) - cpuBefore) / result.requests : NaN,
          errors: result.errors,
        };
      }
      return results;
    };
    // With a slow upstream only latency is of interest: the closed loops would measure the upstream.
    const plainLoad = await measure(
      (t) => fullLoad(t, options.concurrency, upstreamDelayMs ? 0 : options.seconds),
      false,
    );
    const streamLoad = await measure(
      (t) => fullLoad(t, options.streamConcurrency, upstreamDelayMs ? 0 : options.seconds),
      true,
    );
    // At a fixed rate the three take turns half a second at a time (after a warm round): whole runs one
    // after the other met different stretches of the shared machine, and their p50s moved by a third.
    const atRateInTurns = async (stream: boolean) => {
      const targets = VIAS.map((via) => target(via, stream));
      await fixedRateInTurns(targets, options.rate, 1);
      const results = await fixedRateInTurns(targets, options.rate, options.seconds);
      return Object.fromEntries(
        VIAS.map((via, i) => [via, { ...latencyOf(results[i]), rps: results[i].requests / results[i].seconds }]),
      ) as Record<Via, Measured>;
    };
    const plainRate = await atRateInTurns(false);
    const streamRate = await atRateInTurns(true);
    // The three one request at a time, taking turns: on a busy machine the fairest latency comparison.
    const turns = async (stream: boolean) => {
      const results = await takingTurns(
        VIAS.map((via) => target(via, stream)),
        // With a slow upstream, a hundred turns: each of the other two waits for it.
        upstreamDelayMs ? 100 : Math.round(options.rate * options.seconds),
      );
      return Object.fromEntries(VIAS.map((via, i) => [via, { ...latencyOf(results[i]), rps: NaN }])) as Record<
        Via,
        Measured
      >;
    };
    const plainTurns = await turns(false);
    const streamTurns = await turns(true);
    const line = (label: string, results: Record<Via, Measured>, field: keyof Measured, digits: number) => [
      label,
      ...VIAS.map((via) => fmt(results[via][field], digits)),
      `${fmt(results.hit[field] / results.bare[field], 2)}×`,
    ];
    const errors = [plainLoad, streamLoad, plainRate, streamRate, plainTurns, streamTurns].reduce(
      (sum, results) => sum + VIAS.reduce((viaSum, via) => viaSum + results[via].errors, 0),
      0,
    );
    return [
      ['', 'bare proxy', 'Switchyard', 'Switchyard, cache hit', 'hit / bare'],
      line(`plain, closed loop ${options.concurrency} conns (req/s)`, plainLoad, 'rps', 0),
      line(`streamed, closed loop ${options.streamConcurrency} conns (req/s)`, streamLoad, 'rps', 0),
      line(`plain, ${options.rate} req/s: p50 (ms)`, plainRate, 'p50', 2),
      line(`streamed, ${options.rate} req/s: p50 to the last chunk (ms)`, streamRate, 'p50', 2),
      line('plain, one at a time taking turns: p50 (ms)', plainTurns, 'p50', 3),
      line('streamed, one at a time taking turns: p50 to the last chunk (ms)', streamTurns, 'p50', 3),
      line('CPU per request, plain closed loop (µs)', plainLoad, 'cpuPerRequest', 0),
      line('CPU per request, streamed closed loop (µs)', streamLoad, 'cpuPerRequest', 0),
      [`errors: ${errors}`, '', '', '', ''],
    ];
  } finally {
    await processes.stop();
  }
}
