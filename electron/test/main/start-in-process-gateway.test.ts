import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningGateway } from '../../main/gateway-starter.js';
import { startInProcessGateway } from '../../main/start-in-process-gateway.js';

describe('in-process gateway starter', () => {
  let dataDir: string;
  let gateway: RunningGateway | undefined;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-desktop-'));
  });
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('listens on a free localhost port, accepts the console key, and stops on close', async () => {
    const adminKey = 'sk-sy-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    gateway = await startInProcessGateway({
      env: { GATEWAY_LOG_LEVEL: 'silent' },
      dataDir,
      adminKey,
      host: '127.0.0.1',
      port: 0,
    });
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gateway.url).not.toMatch(/:0$/);

    const me = await fetch(`${gateway.url}/account/me`, { headers: { authorization: `Bearer ${adminKey}` } });
    expect(me.status).toBe(200);
    const wrong = await fetch(`${gateway.url}/account/me`, { headers: { authorization: 'Bearer sk-sy-wrong' } });
    expect(wrong.status).toBe(401);

    const url = gateway.url;
    await gateway.close();
    gateway = undefined;
    await expect(fetch(`${url}/status`)).rejects.toThrow();
  });

  it('makes a new Owner key when the console key was revoked, so the desktop user is never locked out', async () => {
    const adminKey = 'sk-sy-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const env = { GATEWAY_LOG_LEVEL: 'silent' };
    gateway = await startInProcessGateway({ env, dataDir, adminKey, host: '127.0.0.1', port: 0 });
    expect(gateway.consoleKey).toBe(adminKey);
    const headers = { authorization: `Bearer ${adminKey}` };
    const other = (await (
      await fetch(`${gateway.url}/account/keys`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'second owner', role: 'owner' }),
      })
    ).json()) as { key: string };
    const keys = (await (await fetch(`${gateway.url}/account/keys`, { headers })).json()) as {
      data: { id: string; name: string }[];
    };
    const consoleKeyId = keys.data.find((key) => key.name === 'Admin (GATEWAY_ADMIN_KEY)')!.id;
    expect(
      (
        await fetch(`${gateway.url}/account/keys/${consoleKeyId}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${other.key}` },
        })
      ).status,
    ).toBe(200);
    await gateway.close();

    gateway = await startInProcessGateway({ env, dataDir, adminKey, host: '127.0.0.1', port: 0 });
    expect(gateway.consoleKey).not.toBe(adminKey);
    expect(
      (await fetch(`${gateway.url}/account/me`, { headers: { authorization: `Bearer ${gateway.consoleKey}` } })).status,
    ).toBe(200);
  });
});
