// The built gateway for the benchmarks: like `switchyard serve`, plus, over IPC, its memory
// (`'memory'` -> process.memoryUsage(), after a full GC when node runs with --expose-gc) and V8's
// sampling CPU profiler (`'profile-start'`, then `'profile-stop'` -> the profile), so a profile
// covers the load only, not the start.
import { Session } from 'node:inspector/promises';
import { buildGateway } from '../../dist/gateway/src/app.js';
import { loadGatewayOptions } from '../../dist/gateway/src/config/load-options.js';

const options = await loadGatewayOptions({ env: process.env });
const { app } = await buildGateway(options);
await app.listen({ host: options.host, port: options.port });
const address = app.server.address();
process.stdout.write(`Bench gateway listening on http://${options.host}:${address.port}\n`);

const inspector = new Session();
inspector.connect();
process.on('message', async (message) => {
  if (message === 'memory') {
    if (typeof globalThis.gc === 'function') globalThis.gc();
    process.send?.(process.memoryUsage());
  } else if (message === 'profile-start') {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
    await inspector.post('Profiler.start');
    process.send?.('profiling');
  } else if (message === 'profile-stop') {
    const { profile } = await inspector.post('Profiler.stop');
    process.send?.(profile);
  }
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
