import { describe, expect, it } from 'vitest';
import { parseMcpJson } from '../../../src/core/mcp/parse-mcp-json.js';

describe('parseMcpJson', () => {
  it('reads the mcpServers of LM Studio and Claude Desktop as they are, names as ids', () => {
    expect(
      parseMcpJson({
        mcpServers: {
          filesystem: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
            env: { DEBUG: '1' },
          },
          'My remote (beta)': { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' }, type: 'http' },
          off: { command: 'x', disabled: true },
        },
      }),
    ).toEqual([
      {
        id: 'filesystem',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
        env: { DEBUG: '1' },
      },
      { id: 'My-remote-beta', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } },
    ]);
  });

  it('refuses what is not an mcp.json, naming the entry', () => {
    expect(() => parseMcpJson({ servers: {} })).toThrow(/"mcpServers"/);
    expect(() => parseMcpJson({ mcpServers: { a: { command: 'x', args: 'y' } } })).toThrow(
      /mcpServers\["a"\]\.args must be an array of strings/,
    );
    expect(() => parseMcpJson({ mcpServers: { a: { url: 'u', headers: { h: 1 } } } })).toThrow(/headers/);
  });
});
