import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadGatewayOptions } from '../../src/config/load-options.js';
import { useTempDir } from '../support/use-resources.js';

async function load(config: unknown, env: Record<string, string> = {}) {
  const dir = useTempDir();
  const configPath = join(dir, 'config.yaml');
  writeFileSync(configPath, stringify(config));
  return loadGatewayOptions({ env: { GATEWAY_DATA_DIR: dir, ...env }, overrides: { configPath } });
}

describe('mcp_servers in the config file', () => {
  it('reads stdio and HTTP servers, with environment expansion in their secrets', async () => {
    const options = await load(
      {
        mcp_servers: [
          { id: 'files', command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: '${MCP_TOKEN}' } },
          { id: 'remote', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' }, allowed_keys: 'all' },
        ],
      },
      { MCP_TOKEN: 'from-env' },
    );
    expect(options.mcpServers).toEqual([
      { id: 'files', command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: 'from-env' } },
      { id: 'remote', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' }, allowed_keys: 'all' },
    ]);
    expect((await load({})).mcpServers).toEqual([]);
  });

  it('stops the start naming the entry: both command and url, neither, a duplicate id, an unknown field', async () => {
    await expect(load({ mcp_servers: [{ id: 'a', command: 'x', url: 'http://h/mcp' }] })).rejects.toThrow(
      /mcp_servers\[0\]: give either `command`.*or `url`/,
    );
    await expect(load({ mcp_servers: [{ id: 'a' }] })).rejects.toThrow(/mcp_servers\[0\]/);
    await expect(
      load({
        mcp_servers: [
          { id: 'a', command: 'x' },
          { id: 'a', command: 'y' },
        ],
      }),
    ).rejects.toThrow(/mcp_servers\[1\]\.id: duplicate MCP server id "a"/);
    await expect(load({ mcp_servers: [{ id: 'a', command: 'x', headers: { h: 'v' } }] })).rejects.toThrow(
      /`headers` belongs to an HTTP server/,
    );
    await expect(load({ mcp_servers: [{ id: 'a', command: 'x', timeout: 5 }] })).rejects.toThrow(/timeout/);
  });
});
