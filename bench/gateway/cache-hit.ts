import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';
import { startBenchProcesses } from './processes.js';
import { warmUp } from './warm-up.js';

type Via = 'bare' | 'gateway' | 'hit';

export interface CacheHitOptions {
  seconds: number;
  rate: number;
  concurrency: number;
  streamConcurrency: number;
  gatewayScript?: string;
}

/**
 * The response cache's promise (issue 38 §2): a hit answers at least as fast as the bare proxy.
 * Side by side in one run on the same processes: the bare Node proxy in front of the fast upstream,
 * Switchyard on an uncached route, and Switchyard answering every request from its cache (the same
 * body at temperature 0 on `bench-cached`, stored by the first request), plain and streamed.
 */
export async function measureCacheHits(options: CacheHitOptions): Promise<string[][]> {
  const processes = await startBenchProcesses(options.gatewayScript);
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
    const vias: Via[] = ['bare', 'gateway', 'hit'];
    await warmUp(
      vias.flatMap((via) => [target(via, false), target(via, true)]),
      [processes.gateway.pid!, processes.bareProxy.pid!],
      options.concurrency,
    );
    const rows: string[][] = [['', 'bare proxy', 'Switchyard', 'Switchyard, cache hit', 'hit / bare']];
    const row = async (
      label: string,
      run: (t: Target) => Promise<LoadResult>,
      stream: boolean,
      read: (r: LoadResult) => number,
      digits: number,
      higherIsBetter: boolean,
    ) => {
      const figures: number[] = [];
      for (const via of vias) {
        await run(target(via, stream));
        figures.push(read(await run(target(via, stream))));
      }
      const ratio = figures[2]! / figures[0]!;
      rows.push([
        label,
        ...figures.map((figure) => figure.toFixed(digits)),
        `${ratio.toFixed(2)}×${higherIsBetter ? '' : ' (lower is faster)'}`,
      ]);
    };
    const rps = (result: LoadResult) => result.requests / result.seconds;
    const p50 = (result: LoadResult) =>
      percentile(
        [...result.latencies].sort((a, b) => a - b),
        50,
      );
    await row(
      `plain, closed loop ${options.concurrency} conns (req/s)`,
      (t) => fullLoad(t, options.concurrency, options.seconds),
      false,
      rps,
      0,
      true,
    );
    await row(
      `streamed, closed loop ${options.streamConcurrency} conns (req/s)`,
      (t) => fullLoad(t, options.streamConcurrency, options.seconds),
      true,
      rps,
      0,
      true,
    );
    await row(
      `plain, ${options.rate} req/s: p50 (ms)`,
      (t) => fixedRate(t, options.rate, options.seconds),
      false,
      p50,
      2,
      false,
    );
    await row(
      `streamed, ${options.rate} req/s: p50 to the last chunk (ms)`,
      (t) => fixedRate(t, options.rate, options.seconds),
      true,
      p50,
      2,
      false,
    );
    return rows;
  } finally {
    await processes.stop();
  }
}
