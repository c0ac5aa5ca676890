/**
 * Hostile load (issue 31): one key sends ordinary chats at a fixed rate while another key sends the
 * attacks of bench/gateway/hostile-inputs.ts, and a client without a key floods the gateway. Prints
 * the ordinary key's p50/p99 beside a quiet run of the same load, each attack's answer and time, and
 * the gateway's peak resident memory.
 *
 *   npx tsx bench/gateway/hostile.ts [--seconds 20] [--rate 50] [--gateway path/to/dist/gateway/src/cli.js]
 */
import { Pool } from 'undici';
import { hostileRequests, smallPngDataUrl, type HostileRequest } from './hostile-inputs.js';
import { fixedRate, percentile, type LoadResult, type Target } from './load.js';
import { rssMiB } from './process-stats.js';
import { chatBody, serveNodeFlags, startBenchProcesses } from './processes.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--seconds') ?? 20);
const rate = Number(args.get('--rate') ?? 50);
const gatewayScript = args.get('--gateway');
/** An attack still unanswered after this long counts as a stall and is abandoned. */
const ATTACK_TIMEOUT_MS = 60_000;
/** The hostile run ends by then even if an attack is still unanswered. */
const MAX_HOSTILE_S = 180;

interface AttackOutcome {
  name: string;
  status: number | string;
  ms: number;
}

async function sendAttack(origin: string, key: string, attack: HostileRequest): Promise<AttackOutcome> {
  const started = performance.now();
  try {
    const answer = await fetch(origin + attack.path, {
      method: 'POST',
      headers: { ...attack.headers, authorization: `Bearer ${key}` },
      body: attack.body,
      signal: AbortSignal.timeout(ATTACK_TIMEOUT_MS),
    });
    const text = await answer.text();
    const code = answer.ok ? '' : ` ${(/"code":"([^"]+)"/.exec(text) ?? [])[1] ?? ''}`;
    return { name: attack.name, status: `${answer.status}${code}`, ms: performance.now() - started };
  } catch (error) {
    return {
      name: attack.name,
      status: (error as Error).name === 'TimeoutError' ? 'no answer in 60 s' : (error as Error).message,
      ms: performance.now() - started,
    };
  }
}

/** Requests without a key, back to back on 8 connections, until `stop` resolves; the count sent. */
async function unauthenticatedFlood(origin: string, stop: Promise<void>): Promise<number> {
  const pool = new Pool(origin, { connections: 8 });
  let sent = 0;
  let done = false;
  void stop.then(() => (done = true));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (!done) {
        const answer = await pool.request({ method: 'GET', path: '/v1/models' }).catch(() => undefined);
        await answer?.body.text();
        sent++;
      }
    }),
  );
  await pool.close();
  return sent;
}

/** Waits until the OCR engine answers (it warms on first use; until then OCR answers 503). */
async function warmOcr(origin: string, key: string): Promise<void> {
  const body = JSON.stringify({ model: 'svc-ocr-3-2512', image: await smallPngDataUrl() });
  for (let attempt = 0; attempt < 120; attempt++) {
    const answer = await fetch(`${origin}/v1/ocr`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body,
    });
    await answer.arrayBuffer();
    if (answer.status !== 503) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the OCR engine did not warm up within a minute');
}

function summary(label: string, result: LoadResult): string[] {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [
    label,
    `${result.requests}`,
    `${result.errors}`,
    ms(percentile(sorted, 50)),
    ms(percentile(sorted, 99)),
    ms(sorted.at(-1) ?? NaN),
  ];
}

function table(rows: string[][]) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`);
}

async function main() {
  console.log('Building the attacks...');
  const attacks = await hostileRequests();
  const processes = await startBenchProcesses(gatewayScript, serveNodeFlags());
  try {
    const ordinary = await processes.createKey();
    const attacker = await processes.createKey();
    const target: Target = {
      origin: processes.gatewayUrl,
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ordinary}` },
      body: chatBody(false),
    };
    await fixedRate(target, rate, 2); // warm-up
    await warmOcr(processes.gatewayUrl, ordinary);
    const pid = processes.gateway.pid!;
    let peakRss = rssMiB(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(pid))), 100);
    const quietRss = peakRss;
    const quiet = await fixedRate(target, rate, seconds);

    let stopAttacks!: () => void;
    const attacksStopped = new Promise<void>((resolve) => (stopAttacks = resolve));
    const outcomes: AttackOutcome[] = [];
    let lanesThroughOnce = 0;
    // Two attack lanes, each going through every attack in its own order, again and again while the load runs.
    const lanes = [attacks, [...attacks].reverse()].map(async (order) => {
      for (let round = 0; ; round++) {
        for (const attack of order) {
          const outcome = await Promise.race([
            sendAttack(processes.gatewayUrl, attacker, attack),
            attacksStopped.then(() => undefined),
          ]);
          if (!outcome) return;
          if (round === 0) outcomes.push(outcome);
        }
        if (round === 0) lanesThroughOnce++;
      }
    });
    const flood = unauthenticatedFlood(processes.gatewayUrl, attacksStopped);
    // The load goes on in 5-second runs until every attack has been answered once (at most MAX_HOSTILE_S).
    const runs: LoadResult[] = [];
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    while (elapsed() < MAX_HOSTILE_S && (elapsed() < seconds || lanesThroughOnce < lanes.length))
      runs.push(await fixedRate(target, rate, 5));
    stopAttacks();
    const [flooded] = await Promise.all([flood, ...lanes]);
    clearInterval(sampler);
    const hostile: LoadResult = {
      requests: runs.reduce((sum, run) => sum + run.requests, 0),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      seconds: runs.reduce((sum, run) => sum + run.seconds, 0),
      latencies: runs.flatMap((run) => run.latencies),
      firstBytes: runs.flatMap((run) => run.firstBytes),
    };

    console.log(
      `\nHostile load: ${rate} chats/s from one key for ${seconds} s quiet, then for ${hostile.seconds.toFixed(0)} s while a second key sends the attacks below (two at a time) and a client without a key floods /v1/models (${flooded} requests)\n`,
    );
    table([
      ['run', 'requests', 'errors', 'p50', 'p99', 'max'],
      summary('quiet', quiet),
      summary('under attack', hostile),
    ]);
    console.log(
      `\nEach attack's first answer (${outcomes.length} of ${attacks.length * 2} sent before the load ended):\n`,
    );
    table([
      ['attack', 'answer', 'time'],
      ...outcomes.map((outcome) => [outcome.name, String(outcome.status), `${(outcome.ms / 1000).toFixed(2)} s`]),
    ]);
    console.log(
      `\nGateway resident memory: ${quietRss.toFixed(0)} MiB before the load, ${peakRss.toFixed(0)} MiB at its peak, ${rssMiB(pid).toFixed(0)} MiB at the end`,
    );
  } finally {
    await processes.stop();
  }
}

await main();
