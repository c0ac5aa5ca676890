import type { AddressInfo } from 'node:net';
import { buildGateway } from '../../gateway/src/app.js';
import { loadGatewayOptions } from '../../gateway/src/config/load-options.js';
import type { GatewayStarter } from './gateway-starter.js';

/** The one place the desktop app touches gateway code: build it, then listen (house rule 1). */
export const startInProcessGateway: GatewayStarter = async ({ env, dataDir, adminKey, host, port }) => {
  const options = await loadGatewayOptions({ env, overrides: { dataDir, adminKey, host, port } });
  const { app, control } = await buildGateway(options);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const { keys } = control;
  const access = await keys.ownerAccess(adminKey);
  const consoleKey =
    access.kind === 'admin-key-revoked'
      ? (await keys.create({ name: 'Desktop console', role: 'owner' })).key
      : adminKey;
  const address = app.server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}`, consoleKey, close: () => app.close() };
};
