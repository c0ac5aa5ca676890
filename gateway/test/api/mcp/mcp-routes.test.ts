import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';
import { everythingStdio, isRunning, processesWith } from '../../support/mcp-servers.js';

const SECRET = 'mcp-secret-value-5b1e';

async function memberKey(gateway: TestGateway): Promise<string> {
  const response = await gateway.request('/account/keys', { method: 'POST', json: { name: 'member', role: 'member' } });
  return ((await json(response)) as { key: string }).key;
}

function call(gateway: TestGateway, server: string, tool: string, args: unknown, key?: string) {
  return gateway.request(`/v1/mcp/servers/${server}/tools/${tool}/call`, {
    method: 'POST',
    json: { arguments: args },
    ...(key ? { key } : {}),
  });
}

async function storedMcpRows(gateway: TestGateway): Promise<{ id: string; value: string | null }[]> {
  return gateway.control.db.query
    .selectFrom('gateway_settings')
    .select(['id', 'value'])
    .where('kind', '=', 'mcp_server')
    .execute();
}

describe('GET /v1/mcp/servers', () => {
  it('starts the configured servers and answers exactly the documented list', async () => {
    const gateway = await useGateway({
      config: { mcp_servers: [everythingStdio(), { id: 'broken', command: 'switchyard-no-such-command' }] },
    });
    const response = await gateway.request('/v1/mcp/servers');
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.object).toBe('list');
    expect(body.data.map((server: { id: string }) => server.id)).toEqual(['broken', 'everything']);
    const [broken, everything] = body.data;
    expect(Object.keys(broken).sort()).toEqual(['error', 'id', 'state', 'tools', 'transport']);
    expect(broken).toMatchObject({ transport: 'stdio', state: 'failed', tools: [] });
    expect(broken.error).toContain('ENOENT');
    expect(Object.keys(everything).sort()).toEqual(['id', 'state', 'tools', 'transport']);
    expect(everything).toMatchObject({ transport: 'stdio', state: 'ready' });
    const echo = everything.tools.find((tool: { name: string }) => tool.name === 'echo');
    expect(Object.keys(echo).sort()).toEqual(['description', 'input_schema', 'name', 'read_only', 'require_approval']);
    expect(echo).toMatchObject({ input_schema: { type: 'object' }, read_only: true });
  });

  it('lists to another key only the servers it may use, without why one failed', async () => {
    const gateway = await useGateway({
      config: {
        mcp_servers: [
          { ...everythingStdio(), allowed_keys: 'all' },
          { id: 'broken', command: 'switchyard-no-such-command', allowed_keys: 'all' },
          everythingStdio('owners-only'),
        ],
      },
    });
    const key = await memberKey(gateway);
    const response = await gateway.request('/v1/mcp/servers', { key });
    expect(response.status).toBe(200);
    const { data } = await json(response);
    expect(data.map((server: { id: string }) => server.id)).toEqual(['broken', 'everything']);
    expect(data[0]).toEqual({ id: 'broken', transport: 'stdio', state: 'failed', tools: [] });
    expect(data[1]).toMatchObject({
      state: 'ready',
      tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]),
    });
    const owners = await json(await gateway.request('/v1/mcp/servers'));
    expect(owners.data.map((server: { id: string }) => server.id)).toEqual(['broken', 'everything', 'owners-only']);
  });

  it('keeps trying a tool by hand for Owners: another key gets 403 in the error shape', async () => {
    const gateway = await useGateway({ config: { mcp_servers: [{ ...everythingStdio(), allowed_keys: 'all' }] } });
    const response = await call(gateway, 'everything', 'echo', { message: 'hi' }, await memberKey(gateway));
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ object: 'error', type: 'permission_error', code: expect.any(String) });
  });
});

describe('POST /v1/mcp/servers/{id}/tools/{tool}/call', () => {
  it("answers the tool's result, and 404 in the error shape for an unknown server or tool", async () => {
    const gateway = await useGateway({ config: { mcp_servers: [everythingStdio()] } });
    const response = await call(gateway, 'everything', 'echo', { message: 'tried' });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      object: 'mcp.tool_result',
      server: 'everything',
      tool: 'echo',
      outcome: 'ok',
      is_error: false,
      content: [{ type: 'text', text: 'Echo: tried' }],
      duration_ms: expect.any(Number),
      truncated: false,
    });

    const noServer = await call(gateway, 'nowhere', 'echo', {});
    expect(noServer.status).toBe(404);
    expect(await json(noServer)).toMatchObject({ object: 'error', code: 'mcp_server_not_found', param: 'server' });
    const noTool = await call(gateway, 'everything', 'nothing-here', {});
    expect(noTool.status).toBe(404);
    const body = await json(noTool);
    expect(body).toMatchObject({ code: 'mcp_tool_not_found', param: 'tool' });
    expect(body.message).toContain('echo');

    const notAnObject = await call(gateway, 'everything', 'echo', 'text');
    expect(notAnObject.status).toBe(422);
  });

  it('answers a tool error as a result with is_error, not as a gateway error', async () => {
    const gateway = await useGateway({ config: { mcp_servers: [everythingStdio()] } });
    const response = await call(gateway, 'everything', 'get-sum', { a: 'not a number' });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ outcome: 'tool_error', is_error: true });
  });
});

describe('MCP servers in the settings', () => {
  it('adds a server from the console with its env sealed at rest and never shown back, kept across a restart', async () => {
    const first = await startGateway();
    const { args } = everythingStdio('added');
    const added = await first.request('/settings/mcp-servers', {
      method: 'POST',
      json: { id: 'added', command: process.execPath, args, env: { API_TOKEN: SECRET } },
    });
    expect(added.status).toBe(200);
    const text = await added.text();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      id: 'added',
      transport: 'stdio',
      env_names: ['API_TOKEN'],
      source: 'console',
    });
    const rows = await storedMcpRows(first);
    expect(rows).toHaveLength(1);
    expect(rows[0].value).not.toContain(SECRET);
    expect(rows[0].value).toContain('enc:v1:');

    // An empty value keeps the stored secret.
    const edited = await first.request('/settings/mcp-servers/added', {
      method: 'PUT',
      json: { command: process.execPath, args, env: { API_TOKEN: '' }, allowed_keys: 'all' },
    });
    expect(edited.status).toBe(200);
    await edited.body?.cancel();
    expect((await first.request('/settings/mcp-servers').then((r) => r.text())).includes(SECRET)).toBe(false);
    const env = await json(await call(first, 'added', 'get-env', {}));
    expect(JSON.parse(env.content[0].text)).toMatchObject({ API_TOKEN: SECRET });
    await first.stop();

    const second = await startGateway({ dataDir: first.dataDir });
    try {
      const listed = await json(await second.request('/settings/mcp-servers'));
      expect(listed.data).toEqual([
        expect.objectContaining({ id: 'added', allowed_keys: 'all', env_names: ['API_TOKEN'] }),
      ]);
      const again = await json(await call(second, 'added', 'get-env', {}));
      expect(JSON.parse(again.content[0].text)).toMatchObject({ API_TOKEN: SECRET });
    } finally {
      await second.close();
    }
  });

  it('refuses an entry with both a command and a URL, and an id that exists', async () => {
    const gateway = await useGateway({ config: { mcp_servers: [everythingStdio()] } });
    const both = await gateway.request('/settings/mcp-servers', {
      method: 'POST',
      json: { id: 'both', command: 'x', url: 'http://127.0.0.1:1/mcp' },
    });
    expect(both.status).toBe(422);
    expect(await json(both)).toMatchObject({ code: 'invalid_mcp_server' });
    const taken = await gateway.request('/settings/mcp-servers', {
      method: 'POST',
      json: { id: 'everything', command: 'x' },
    });
    expect(taken.status).toBe(409);
  });

  it('imports an mcp.json as LM Studio and Claude Desktop write it', async () => {
    const gateway = await useGateway();
    const { command, args } = everythingStdio('imported');
    const response = await gateway.request('/settings/mcp-servers/import', {
      method: 'POST',
      json: {
        mcpServers: {
          'Everything Server': { command, args, env: { TOKEN: SECRET } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${SECRET}` } },
        },
      },
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).data).toEqual([
      expect.objectContaining({ id: 'Everything-Server', transport: 'stdio', env_names: ['TOKEN'] }),
      expect.objectContaining({ id: 'remote', transport: 'http', header_names: ['Authorization'] }),
    ]);
    const listed = await json(await gateway.request('/v1/mcp/servers'));
    expect(listed.data.find((server: { id: string }) => server.id === 'Everything-Server').state).toBe('ready');

    const invalid = await gateway.request('/settings/mcp-servers/import', {
      method: 'POST',
      json: { mcpServers: { bad: { command: 3 } } },
    });
    expect(invalid.status).toBe(422);
    expect(await json(invalid)).toMatchObject({ code: 'invalid_mcp_json' });
  });

  it('stops the process of a server removed in the console; a config-file server stays removed until reset', async () => {
    const marker = `marker-removed-${process.pid}-${Date.now()}`;
    const gateway = await useGateway({ config: { mcp_servers: [everythingStdio('everything', marker)] } });
    await json(await gateway.request('/v1/mcp/servers'));
    const [pid] = processesWith(marker);
    expect(pid).toBeDefined();
    const removed = await gateway.request('/settings/mcp-servers/everything', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    await removed.body?.cancel();
    expect(isRunning(pid)).toBe(false);
    expect((await json(await gateway.request('/v1/mcp/servers'))).data).toEqual([]);
    expect((await json(await gateway.request('/settings/mcp-servers'))).data).toEqual([
      expect.objectContaining({ id: 'everything', removed: true, in_config: true }),
    ]);
    const reset = await gateway.request('/settings/mcp-servers/everything/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    expect((await json(await gateway.request('/v1/mcp/servers'))).data[0]).toMatchObject({ state: 'ready' });
  });
});

describe('a config file reload (SIGHUP)', () => {
  it("applies the file's servers again: a new one is offered, a dropped one is stopped", async () => {
    const marker = `marker-reload-${process.pid}-${Date.now()}`;
    const gateway = await useGateway({ config: { mcp_servers: [everythingStdio('before', marker)] } });
    await json(await gateway.request('/v1/mcp/servers'));
    const [pid] = processesWith(marker);
    expect(isRunning(pid)).toBe(true);
    writeFileSync(join(gateway.dataDir, 'config.yaml'), stringify({ mcp_servers: [everythingStdio('after')] }));
    await gateway.control.configReload.reload('test');
    expect(isRunning(pid)).toBe(false);
    const listed = await json(await gateway.request('/v1/mcp/servers'));
    expect(listed.data).toEqual([expect.objectContaining({ id: 'after', state: 'ready' })]);
  });
});

describe('the gateway stopping', () => {
  it('ends every stdio server it started', async () => {
    const marker = `marker-stop-${process.pid}-${Date.now()}`;
    const gateway = await startGateway({
      config: { mcp_servers: [everythingStdio('one', `${marker}-1`), everythingStdio('two', `${marker}-2`)] },
    });
    try {
      // Read to the end: an answer left unread keeps its connection busy, and the stop waits for it.
      await json(await gateway.request('/v1/mcp/servers'));
      const pids = processesWith(marker);
      expect(pids).toHaveLength(2);
      await gateway.stop();
      expect(pids.filter(isRunning)).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});
