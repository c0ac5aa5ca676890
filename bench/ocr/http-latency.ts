/**
 * End-to-end latency of one 200-DPI A4 page (1654×2339 PNG) through `POST /v1/ocr` on the built gateway
 * (its built-in local OCR model, over a real HTTP socket), beside Debian's `tesseract` command on the
 * same PNG file; requests one after another, warm, p50 and p95 of each.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { firstLine } from '../gateway/processes.js';
import { percentile } from '../gateway/load.js';
import { a4Page } from './a4-page.js';

const exec = promisify(execFile);
const root = path.join(import.meta.dirname, '../..');
const ADMIN_KEY = 'sk-sy-bench-admin-0123456789abcdefghij';

export interface LatencyFigures {
  /** Wall milliseconds per request. */
  gateway: number[];
  command: number[];
  /** The command with one OpenMP thread, as the gateway runs it. */
  commandOneThread: number[];
  /** CPU milliseconds per request (all processes), which the machine's load does not inflate. */
  gatewayCpu: number[];
  commandCpu: number[];
  commandOneThreadCpu: number[];
}

/** CPU milliseconds a process and its reaped children have used (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | 'self'): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat, 12-15 after the name; clock ticks of 10 ms.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
  } catch {
    return 0;
  }
}

const ms = (values: number[], p: number): string =>
  `${Math.round(
    percentile(
      [...values].sort((a, b) => a - b),
      p,
    ),
  )} ms`;

/** Times `runs` requests (after one warm-up each), gateway and command alternating so both see the same load. */
export async function measureA4Latency(runs: number): Promise<LatencyFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-ocr-latency-'));
  const config = path.join(dir, 'config.yaml');
  await writeFile(config, process.env.OCR_LATENCY_CONFIG ?? 'server:\n  warm_engines: true\n');
  const gateway = spawn(
    process.execPath,
    [...(process.env.OCR_LATENCY_NODE_ARGS?.split(' ') ?? []), path.join(root, 'dist/gateway/src/cli.js')],
    {
      env: {
        ...process.env,
        GATEWAY_DATA_DIR: dir,
        GATEWAY_CONFIG: config,
        GATEWAY_PORT: '0',
        GATEWAY_ADMIN_KEY: ADMIN_KEY,
        GATEWAY_LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const url = (await firstLine(gateway, /listening on (http:\/\/[\d.]+:\d+)/))[1];
    const page = await a4Page(7);
    const file = path.join(dir, 'a4.png');
    await writeFile(file, page.image);
    const body = JSON.stringify({ model: 'svc-ocr-3-2512', image: page.image.toString('base64') });
    const post = (): Promise<Response> =>
      fetch(`${url}/v1/ocr`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body,
      });
    // The engine warms in the background; wait for it rather than time its start.
    for (let tries = 0; (await post()).status === 503 && tries < 120; tries++)
      await new Promise((resolve) => setTimeout(resolve, 500));
    const viaGateway = async (): Promise<number> => {
      const start = performance.now();
      const response = await post();
      const result = (await response.json()) as { text?: string };
      if (response.status !== 200 || !result.text?.includes('river'))
        throw new Error(`/v1/ocr answered ${response.status}: ${JSON.stringify(result).slice(0, 300)}`);
      return performance.now() - start;
    };
    const viaCommand = async (threads?: string): Promise<number> => {
      const start = performance.now();
      await exec('tesseract', [file, 'stdout', 'tsv'], {
        maxBuffer: 64 << 20,
        env: threads ? { ...process.env, OMP_THREAD_LIMIT: threads } : process.env,
      });
      return performance.now() - start;
    };
    await viaGateway();
    await viaCommand();
    const figures: LatencyFigures = {
      gateway: [],
      command: [],
      commandOneThread: [],
      gatewayCpu: [],
      commandCpu: [],
      commandOneThreadCpu: [],
    };
    for (let i = 0; i < runs; i++) {
      let cpu = cpuMs(gateway.pid!);
      figures.gateway.push(await viaGateway());
      figures.gatewayCpu.push(cpuMs(gateway.pid!) - cpu);
      cpu = cpuMs('self');
      figures.command.push(await viaCommand());
      figures.commandCpu.push(cpuMs('self') - cpu);
      cpu = cpuMs('self');
      figures.commandOneThread.push(await viaCommand('1'));
      figures.commandOneThreadCpu.push(cpuMs('self') - cpu);
    }
    return figures;
  } finally {
    gateway.kill('SIGTERM');
    if (gateway.exitCode === null) await once(gateway, 'exit');
    await rm(dir, { recursive: true, force: true });
  }
}

export function printA4Latency(figures: LatencyFigures): void {
  console.log(
    `\nOne 200-DPI A4 page (1654×2339 PNG), ${figures.gateway.length} requests one after another, warm, load average ${loadavg()[0].toFixed(1)}:`,
  );
  console.log('wall p50 / p95, and CPU p50 (every process the request ran; the load does not inflate it)');
  console.log(
    `  POST /v1/ocr (HTTP, end to end)   ${ms(figures.gateway, 50)} / ${ms(figures.gateway, 95)}, CPU ${ms(figures.gatewayCpu, 50)}`,
  );
  console.log(
    `  tesseract command (same PNG, tsv) ${ms(figures.command, 50)} / ${ms(figures.command, 95)}, CPU ${ms(figures.commandCpu, 50)}`,
  );
  console.log(
    `  the command, OMP_THREAD_LIMIT=1    ${ms(figures.commandOneThread, 50)} / ${ms(figures.commandOneThread, 95)}, CPU ${ms(figures.commandOneThreadCpu, 50)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`)
  printA4Latency(await measureA4Latency(Number(process.argv[2] ?? 10)));
