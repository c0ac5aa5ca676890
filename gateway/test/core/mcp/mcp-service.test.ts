import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { McpServerStore } from '../../../src/core/mcp/mcp-server-store.js';
import { McpService, type McpCallStart } from '../../../src/core/mcp/mcp-service.js';
import type { ToolCallResult } from '../../../src/core/mcp/mcp-connection.js';
import { SecretBox } from '../../../src/core/settings/secret-box.js';
import { AddressPolicy } from '../../../src/core/url-fetch/address-policy.js';
import { openDatabase } from '../../../src/store/database.js';
import { SettingsRepository } from '../../../src/store/settings-repository.js';
import type { McpServerConfig } from '../../../src/wire/mcp-server-schemas.js';
import { closeAfterTest, useTempDir } from '../../support/use-resources.js';
import { everythingStdio, isRunning, processesWith } from '../../support/mcp-servers.js';

const owner = { id: 'key_owner', role: 'owner' as const };
const member = { id: 'key_member', role: 'member' as const };
const other = { id: 'key_other', role: 'member' as const };

async function service(servers: McpServerConfig[], calls: [McpCallStart, ToolCallResult][] = []): Promise<McpService> {
  const db = closeAfterTest(await openDatabase({ dataDir: useTempDir() }));
  const mcp = closeAfterTest(
    new McpService({
      fileServers: servers,
      store: new McpServerStore(new SettingsRepository(db), { box: new SecretBox(randomBytes(32)), source: 'test' }),
      urlPolicy: new AddressPolicy([]),
      version: 'test',
      log: { info: () => undefined, warn: () => undefined },
      path: process.env.PATH,
      observeCall: (call) => (result) => calls.push([call, result]),
    }),
  );
  await mcp.reload();
  return mcp;
}

describe('McpService: who may use a server', () => {
  it('lets Owners use every server and other keys only those an Owner allowed them, refusing alike an unknown server', async () => {
    const mcp = await service([
      { ...everythingStdio('owners-only') },
      { ...everythingStdio('for-member'), allowed_keys: ['key_member'] },
      { ...everythingStdio('for-all'), allowed_keys: 'all' },
    ]);
    const echo = (server: string, caller: typeof owner | typeof member) =>
      mcp.callTool(server, 'echo', { message: 'x' }, { caller });

    expect((await echo('owners-only', owner)).outcome).toBe('ok');
    expect((await echo('for-member', member)).outcome).toBe('ok');
    expect((await echo('for-all', other)).outcome).toBe('ok');
    for (const [server, caller] of [
      ['owners-only', member],
      ['for-member', other],
      ['no-such-server', member],
    ] as const) {
      await expect(echo(server, caller)).rejects.toMatchObject({ status: 404, code: 'mcp_server_not_found' });
      await expect(mcp.listTools(server, caller)).rejects.toMatchObject({ status: 404 });
    }
    expect((await mcp.listTools('for-member', member)).map((tool) => tool.name)).toContain('echo');
  });
});

describe('McpService: calls', () => {
  it('tells its observer (the trace span) each call with its outcome and duration', async () => {
    const calls: [McpCallStart, ToolCallResult][] = [];
    const mcp = await service([everythingStdio()], calls);
    await mcp.callTool('everything', 'echo', { message: 'seen' }, { caller: owner });
    expect(calls).toEqual([
      [
        { server: 'everything', tool: 'echo', keyId: 'key_owner' },
        expect.objectContaining({ outcome: 'ok', durationMs: expect.any(Number) }),
      ],
    ]);
  });

  it('answers 502 for the tools of a server that cannot start, and a failed outcome for a call on it', async () => {
    const mcp = await service([{ id: 'broken', command: 'switchyard-no-such-command' }]);
    await expect(mcp.listTools('broken', owner)).rejects.toMatchObject({
      status: 502,
      code: 'mcp_server_unavailable',
      message: expect.stringContaining('ENOENT'),
    });
    expect(await mcp.callTool('broken', 'any', {}, { caller: owner })).toMatchObject({
      outcome: 'failed',
      isError: true,
    });
  });
});

describe('McpService: a server that never answers', () => {
  it('is listed as starting instead of holding the list, and is ended at once when the service closes', async () => {
    const marker = `marker-silent-${process.pid}-${Date.now()}`;
    const db = closeAfterTest(await openDatabase({ dataDir: useTempDir() }));
    const mcp = new McpService({
      fileServers: [{ id: 'silent', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', marker] }],
      store: new McpServerStore(new SettingsRepository(db), { box: new SecretBox(randomBytes(32)), source: 'test' }),
      urlPolicy: new AddressPolicy([]),
      version: 'test',
      log: { info: () => undefined, warn: () => undefined },
      path: process.env.PATH,
      listWaitMs: 300,
    });
    await mcp.reload();
    expect(await mcp.listServers(owner)).toEqual([{ id: 'silent', transport: 'stdio', state: 'starting', tools: [] }]);
    const [pid] = processesWith(marker);
    expect(isRunning(pid)).toBe(true);
    await mcp.close();
    expect(isRunning(pid)).toBe(false);
  });
});
