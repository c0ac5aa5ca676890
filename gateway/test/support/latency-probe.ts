import { json, type TestGateway } from './start-gateway.js';

/**
 * What another key saw while an attack ran: the latency of each of its small requests and how much
 * the process's peak memory grew.
 */
export interface ProbeReport {
  /** Each probe request's latency in ms, in order. */
  latenciesMs: number[];
  /** The slowest probe request (ms); a frozen event loop shows here. */
  worstMs: number;
  /** How far the process's peak resident memory rose above its resident memory at the start (MiB). */
  peakRssGrowthMiB: number;
}

export interface LatencyProbe {
  /** Stops probing and reports; waits for the probe request in flight. */
  stop(): Promise<ProbeReport>;
}

/** A Member key of its own, so the probe is another user of the gateway. */
export async function createMemberKey(gateway: TestGateway, name = 'probe'): Promise<string> {
  const created = await json(
    await gateway.request('/account/keys', { method: 'POST', json: { name, role: 'member' } }),
  );
  return created.key as string;
}

/**
 * Polls `GET /v1/models` with `key` every `everyMs` while an attack runs, measuring each answer's
 * latency, and the growth of the process's peak RSS (`maxRSS` is a high-water mark, so a spike between
 * two samples is still seen). Tests start the gateway in their own process, so a stalled event loop
 * stalls the probe's answers too.
 */
export function startLatencyProbe(gateway: TestGateway, key: string, everyMs = 50): LatencyProbe {
  const rssAtStart = process.memoryUsage().rss;
  const latenciesMs: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const answer = await gateway.request('/v1/models', { key });
      await answer.arrayBuffer();
      latenciesMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const peakRss = process.resourceUsage().maxRSS * 1024;
      return {
        latenciesMs,
        worstMs: Math.max(0, ...latenciesMs),
        peakRssGrowthMiB: Math.max(0, peakRss - rssAtStart) / 2 ** 20,
      };
    },
  };
}
