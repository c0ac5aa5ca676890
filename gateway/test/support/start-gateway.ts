import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildGateway, type BuildExtras, type Gateway } from '../../src/app.js';
import { loadGatewayOptions } from '../../src/config/load-options.js';
import { NativeEngines } from '../../src/providers/_shared/native-engines.js';

export const ADMIN_KEY = 'sk-sy-test-admin-key-0123456789abcdef';

/** The test process's native engines (llama.cpp's loads in seconds), shared by the gateways its tests start. */
const nativeEngines = new NativeEngines();

export interface TestGateway {
  url: string;
  dataDir: string;
  app: Gateway['app'];
  /** The operator's handle: the database, outage warnings, config reloads. */
  control: Gateway['control'];
  /** fetch against the gateway with the admin key unless `headers.authorization` is given (null: no key). */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  stop(): Promise<void>;
  /** stop(), then remove the data folder. */
  close(): Promise<void>;
}

export interface StartOptions {
  config?: Record<string, unknown>;
  dataDir?: string;
  env?: Record<string, string>;
  extras?: BuildExtras;
  /** Engines are not warmed at start unless asked: most tests never touch OCR. */
  warm?: boolean;
  /** The bootstrap Owner key (default ADMIN_KEY). */
  adminKey?: string;
}

/** A fresh gateway on 127.0.0.1, port 0, with its own data folder (or a given one, to test restarts). */
export async function startGateway(options: StartOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  const config = {
    ...options.config,
    server: { warm_engines: options.warm ?? false, ...(options.config?.server as object | undefined) },
  };
  const configPath = join(dataDir, 'config.yaml');
  writeFileSync(configPath, stringify(config));
  const gatewayOptions = await loadGatewayOptions({
    env: { GATEWAY_LOG_LEVEL: 'silent', ...options.env },
    overrides: { dataDir, port: 0, host: '127.0.0.1', adminKey: options.adminKey ?? ADMIN_KEY, configPath },
  });
  const { app, control } = await buildGateway(gatewayOptions, { nativeEngines, ...options.extras });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  return {
    url,
    dataDir,
    app,
    control,
    request(path, init = {}) {
      const { json, key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null && !headers.has('authorization') && !headers.has('x-api-key'))
        headers.set('authorization', `Bearer ${key ?? options.adminKey ?? ADMIN_KEY}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    stop,
    async close() {
      await stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies and assert on their fields
export type Json = any;
export const json = (response: Response): Promise<Json> => response.json() as Promise<Json>;
