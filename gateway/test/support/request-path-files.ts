import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { spawnGateway, type SpawnedGateway } from './spawn-gateway.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT_SOURCES = 'dist/gateway/src/';

interface ScriptCoverage {
  url: string;
  functions: { ranges: { count: number }[] }[];
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
async function inspectorSession(webSocketUrl: string) {
  const socket = new WebSocket(webSocketUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    send<T>(method: string, params: object = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve) => pending.set(id, resolve as (result: unknown) => void));
    },
    close: () => socket.close(),
  };
}

/**
 * The gateway's source files that run while it serves one request: the built gateway runs under the
 * inspector with V8's precise coverage (call counts); after `warmups` of the same request the counts
 * are reset, the request is sent once more, and every `gateway/src` file with a function that ran
 * since the reset (the usage write after the answer included, `settleMs` later) is listed, as its
 * TypeScript source path, unless it also ran in as long a time with no request after. Needs
 * `npm run build:gateway`.
 */
export async function filesOnRequestPath(
  dataDir: string,
  config: Record<string, unknown>,
  request: (gateway: SpawnedGateway) => Promise<void>,
  { warmups = 3, settleMs = 500 }: { warmups?: number; settleMs?: number } = {},
): Promise<string[]> {
  const gateway = await spawnGateway(dataDir, config, {}, [], ['--inspect=127.0.0.1:0']);
  try {
    const webSocketUrl = /Debugger listening on (ws:\/\/\S+)/.exec(gateway.output().stderr)?.[1];
    if (!webSocketUrl) throw new Error(`no inspector address in: ${gateway.output().stderr}`);
    const session = await inspectorSession(webSocketUrl);
    await session.send('Profiler.enable');
    await session.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    for (let i = 0; i < warmups; i++) await request(gateway);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    await session.send('Profiler.takePreciseCoverage');
    const started = performance.now();
    await request(gateway);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const { result } = await session.send<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
    // As long again with no request: what runs then (an engine's idle timer, a periodic check) is not
    // the request's path, wherever its timer happened to fire.
    await new Promise((resolve) => setTimeout(resolve, Math.max(1000, performance.now() - started)));
    const idle = await session.send<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
    session.close();
    const ranFiles = (scripts: ScriptCoverage[]) =>
      scripts
        .filter((script) => script.functions.some((fn) => fn.ranges[0]?.count > 0))
        .map((script) => (script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url))
        .map((path) => relative(ROOT, path))
        .filter((path) => path.startsWith(BUILT_SOURCES))
        .map((path) => 'gateway/src/' + path.slice(BUILT_SOURCES.length).replace(/\.js$/, '.ts'));
    const idleFiles = new Set(ranFiles(idle.result));
    return ranFiles(result)
      .filter((file) => !idleFiles.has(file))
      .sort();
  } finally {
    gateway.child.kill('SIGKILL');
    await gateway.exited;
  }
}
