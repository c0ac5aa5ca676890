import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnGateway, type SpawnedGateway } from '../support/spawn-gateway.js';
import { useTempDir } from '../support/use-resources.js';

const running: SpawnedGateway[] = [];
afterEach(async () => {
  for (const gateway of running.splice(0)) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) {
      gateway.child.kill('SIGKILL');
      await gateway.exited;
    }
  }
});

/** The real CLI without GATEWAY_ADMIN_KEY, as a new user starts it. */
async function start(dataDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<SpawnedGateway> {
  const gateway = await spawnGateway(dataDir, {}, { GATEWAY_ADMIN_KEY: '', ...env }, args);
  running.push(gateway);
  return gateway;
}

async function stop(gateway: SpawnedGateway): Promise<void> {
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited).toBe(0);
}

async function signsIn(gateway: SpawnedGateway, key: string): Promise<number> {
  const me = await gateway.request('/account/me', { headers: { authorization: `Bearer ${key}` } });
  return me.status;
}

function takenPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('the Owner key of a new data folder', () => {
  it('a start that fails on a taken port leaves no unseen key: the next start prints a key that signs in', async () => {
    const dataDir = useTempDir('switchyard-owner-');
    const blocker = await takenPort();
    try {
      const port = (blocker.address() as { port: number }).port;
      await expect(start(dataDir, { GATEWAY_PORT: String(port) })).rejects.toThrow(/already in use/);
    } finally {
      blocker.close();
    }

    const gateway = await start(dataDir);
    await expect
      .poll(() => gateway.output().stdout)
      .toMatch(/Generated an Owner API key \(shown once, store it now\): sk-sy-/);
    const key = /store it now\): (sk-sy-\S+)/.exec(gateway.output().stdout)![1];
    expect(await signsIn(gateway, key)).toBe(200);
    await stop(gateway);
  });

  it('a later start without the key says how to get in, and --reset-owner-key prints a new Owner key that signs in', async () => {
    const dataDir = useTempDir('switchyard-owner-');
    const first = await start(dataDir);
    await expect.poll(() => first.output().stdout).toMatch(/Generated an Owner API key/);
    await stop(first);

    const second = await start(dataDir);
    await expect
      .poll(() => second.output().stdout)
      .toMatch(/Lost it\? Set GATEWAY_ADMIN_KEY .*`npm run serve -- --reset-owner-key`/);
    expect(second.output().stdout).not.toMatch(/sk-sy-/);
    await stop(second);

    const reset = await start(dataDir, {}, ['--reset-owner-key']);
    await expect
      .poll(() => reset.output().stdout)
      .toMatch(/New Owner API key \(--reset-owner-key; shown once, store it now\): sk-sy-/);
    const key = /store it now\): (sk-sy-\S+)/.exec(reset.output().stdout)![1];
    expect(await signsIn(reset, key)).toBe(200);
    const account = (await (
      await reset.request('/account/keys', { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { data: { name: string; role: string }[] };
    expect(account.data.filter((entry) => entry.role === 'owner').map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['Bootstrap owner', 'Owner (--reset-owner-key)']),
    );
    await stop(reset);
  });

  it('a revoked GATEWAY_ADMIN_KEY is named at start, and an unknown option is one line', async () => {
    const dataDir = useTempDir('switchyard-owner-');
    const adminKey = 'sk-sy-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
    const first = await start(dataDir, { GATEWAY_ADMIN_KEY: adminKey });
    const created = (await (
      await first.request('/account/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}` },
        json: { name: 'other owner', role: 'owner' },
      })
    ).json()) as { key: string };
    const keys = (await (
      await first.request('/account/keys', { headers: { authorization: `Bearer ${adminKey}` } })
    ).json()) as { data: { id: string; name: string }[] };
    const adminId = keys.data.find((entry) => entry.name === 'Admin (GATEWAY_ADMIN_KEY)')!.id;
    expect(
      (
        await first.request(`/account/keys/${adminId}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${created.key}` },
        })
      ).status,
    ).toBe(200);
    await stop(first);

    const second = await start(dataDir, { GATEWAY_ADMIN_KEY: adminKey });
    await expect
      .poll(() => second.output().stdout)
      .toMatch(/GATEWAY_ADMIN_KEY was revoked in this data folder .*--reset-owner-key/);
    await stop(second);

    await expect(start(dataDir, {}, ['--reset-owner'])).rejects.toThrow(
      /unknown option --reset-owner; the only option is --reset-owner-key/,
    );
  });
});
