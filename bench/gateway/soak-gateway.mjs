// The built gateway for the soak: like `switchyard serve`, plus its memory on request over IPC
// (`'memory'` -> process.memoryUsage(), after a full GC when node runs with --expose-gc).
import { buildGateway } from '../../dist/gateway/src/app.js';
import { loadGatewayOptions } from '../../dist/gateway/src/config/load-options.js';

const options = await loadGatewayOptions({ env: process.env });
const app = await buildGateway(options);
await app.listen({ host: options.host, port: options.port });
const address = app.server.address();
process.stdout.write(`Soak gateway listening on http://${options.host}:${address.port}\n`);
process.on('message', (message) => {
  if (message !== 'memory') return;
  if (typeof globalThis.gc === 'function') globalThis.gc();
  process.send?.(process.memoryUsage());
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
