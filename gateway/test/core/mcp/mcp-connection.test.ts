import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { McpConnection } from '../../../src/core/mcp/mcp-connection.js';
import { AddressPolicy } from '../../../src/core/url-fetch/address-policy.js';
import { parseUrlFetchAllow } from '../../../src/config/url-fetch-allow.js';
import type { McpServerConfig } from '../../../src/wire/mcp-server-schemas.js';
import { closeAfterTest, useTempDir } from '../../support/use-resources.js';
import {
  EVERYTHING_SERVER,
  everythingStdio,
  filesystemStdio,
  fixtureStdio,
  isRunning,
  processesWith,
  useEverythingHttp,
} from '../../support/mcp-servers.js';

const quiet = { info: () => undefined, warn: () => undefined };

function connect(config: McpServerConfig, allow: string[] = []): McpConnection {
  return closeAfterTest(
    new McpConnection(config, {
      urlPolicy: new AddressPolicy(parseUrlFetchAllow(allow)),
      version: 'test',
      log: quiet,
      path: process.env.PATH,
    }),
  );
}

const textOf = (result: { content: Record<string, unknown>[] }) => result.content.map((block) => block.text).join('');

describe('McpConnection: server-everything over stdio', () => {
  it('starts on first use, lists the tools with their read-only annotation, and calls one', async () => {
    const server = connect(everythingStdio());
    expect(server.status()).toMatchObject({ state: 'starting', tools: [] });
    const tools = await server.readyTools();
    const echo = tools?.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({
      description: 'Echoes back the input string',
      input_schema: { type: 'object', properties: { message: { type: 'string' } } },
      read_only: true,
      require_approval: 'never',
    });
    expect(server.status().state).toBe('ready');
    // The gateway offers the server nothing to ask of it (sampling its models, roots, elicitation).
    expect(tools?.map((tool) => tool.name)).not.toContain('trigger-sampling-request');
    expect(tools?.map((tool) => tool.name)).not.toContain('get-roots-list');
    const result = await server.callTool('echo', { message: 'hello' }, {});
    expect(result).toMatchObject({ outcome: 'ok', isError: false, truncated: false });
    expect(textOf(result)).toBe('Echo: hello');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('gives the process its configured environment and PATH, nothing else of the gateway', async () => {
    const server = connect({ ...everythingStdio(), env: { GREETING: 'hi' } });
    await server.readyTools();
    const env = JSON.parse(textOf(await server.callTool('get-env', {}, {}))) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['GREETING', 'PATH']);
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('answers a tool that runs past the timeout with a timeout outcome', async () => {
    const server = connect({ ...everythingStdio(), timeout_ms: 300 });
    await server.readyTools();
    const result = await server.callTool('trigger-long-running-operation', { duration: 30, steps: 1 }, {});
    expect(result, textOf(result)).toMatchObject({ outcome: 'timeout', isError: true });
    expect(textOf(result)).toContain('took longer than 0.3 s');
    // The server is still usable.
    expect((await server.callTool('echo', { message: 'after' }, {})).outcome).toBe('ok');
  });

  it('stops a call when its caller goes away', async () => {
    const server = connect(everythingStdio());
    await server.readyTools();
    const controller = new AbortController();
    const call = server.callTool(
      'trigger-long-running-operation',
      { duration: 30, steps: 1 },
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 100);
    expect(await call).toMatchObject({ outcome: 'cancelled', isError: true });
  });

  it('closes within seconds while it is starting again after a crash (the gateway stops then)', async () => {
    const server = connect(everythingStdio('restarting', `marker-restarting-${process.pid}`));
    await server.readyTools();
    process.kill(server.pid!, 'SIGKILL');
    await vi.waitFor(() => expect(server.status().state).toBe('starting'), { timeout: 5_000, interval: 2 });
    const startedAt = Date.now();
    await server.close();
    expect(Date.now() - startedAt).toBeLessThan(6_000);
    await vi.waitFor(() => expect(processesWith(`marker-restarting-${process.pid}`)).toEqual([]), { timeout: 5_000 });
  });

  it('reports a process killed mid-call, then starts it again with backoff', async () => {
    const server = connect(everythingStdio());
    await server.readyTools();
    const first = server.pid!;
    const call = server.callTool('trigger-long-running-operation', { duration: 30, steps: 1 }, {});
    setTimeout(() => process.kill(first, 'SIGKILL'), 100);
    const result = await call;
    expect(result).toMatchObject({ outcome: 'failed', isError: true });
    expect(textOf(result)).toContain('SIGKILL');
    expect(server.status()).toMatchObject({ state: 'failed', error: expect.stringContaining('SIGKILL') });
    await vi.waitFor(() => expect(server.status().state).toBe('ready'), { timeout: 10_000, interval: 100 });
    expect(server.pid).not.toBe(first);
    expect(isRunning(first)).toBe(false);
    expect((await server.callTool('echo', { message: 'again' }, {})).outcome).toBe('ok');
  });

  it('ends its process, and what that process started, when closed', async () => {
    // A launcher that leaves a helper running beside the server, which no closed stdin ends.
    const marker = `marker-wrapped-${process.pid}-${Date.now()}`;
    const node = `"${process.execPath}"`;
    const server = connect({
      id: 'wrapped',
      command: '/bin/sh',
      args: ['-c', `${node} -e "setInterval(() => {}, 1000)" ${marker} & exec ${node} "${EVERYTHING_SERVER}" stdio`],
    });
    expect((await server.readyTools())?.length).toBeGreaterThan(0);
    const pids = [...new Set([server.pid!, ...processesWith(marker)])];
    expect(pids.filter(isRunning)).toHaveLength(2);
    await server.close();
    // SIGKILL is delivered, not awaited: the helper is gone a moment after close() returns.
    await vi.waitFor(() => expect(pids.filter(isRunning)).toEqual([]), { timeout: 5_000, interval: 50 });
  });
});

describe('McpConnection: failures', () => {
  it('a command that does not exist fails with the reason, and is not retried before its backoff', async () => {
    const server = connect({ id: 'nothing', command: 'switchyard-no-such-command' });
    expect(await server.readyTools()).toBeUndefined();
    const status = server.status();
    expect(status).toMatchObject({ state: 'failed', tools: [] });
    expect(status.error).toContain('could not start "switchyard-no-such-command"');
    expect(status.error).toContain('ENOENT');
    const result = await server.callTool('anything', {}, {});
    expect(result).toMatchObject({ outcome: 'failed', isError: true });
    expect(textOf(result)).toContain('is not available');
  });

  it('a process that exits at once fails with its stderr', async () => {
    const server = connect({
      id: 'exits',
      command: process.execPath,
      args: ['-e', 'console.error("missing API token"); process.exit(3)'],
    });
    await server.readyTools();
    expect(server.status()).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/exited with code 3.*missing API token/s),
    });
  });

  it('leaves out a tool with a broken schema and names it, and keeps the others', async () => {
    const server = connect(fixtureStdio());
    const tools = await server.readyTools();
    expect(tools?.map((tool) => tool.name)).toEqual(['ok', 'grow', 'big']);
    expect(server.status().skipped_tools).toEqual([{ name: 'broken', reason: expect.stringContaining('inputSchema') }]);
    expect(tools?.find((tool) => tool.name === 'grow')).toMatchObject({ read_only: false, require_approval: 'always' });
  });

  it('reads the tool list again when the server says it changed', async () => {
    const server = connect(fixtureStdio());
    await server.readyTools();
    expect((await server.callTool('grow', {}, {})).outcome).toBe('ok');
    await vi.waitFor(async () => expect((await server.readyTools())?.map((tool) => tool.name)).toContain('grown'), {
      timeout: 5_000,
      interval: 50,
    });
  });

  it('cuts a result longer than max_output_chars and says so', async () => {
    const server = connect({ ...fixtureStdio(), max_output_chars: 1000 });
    await server.readyTools();
    const result = await server.callTool('big', { chars: 5000 }, {});
    expect(result).toMatchObject({ outcome: 'ok', truncated: true });
    expect(result.content[0]).toEqual({ type: 'text', text: 'x'.repeat(1000) });
    expect(result.content[1].text).toContain('it had 5000 characters');
  });
});

describe('McpConnection: server-filesystem on a temporary folder', () => {
  it('reads a file, reports a missing one as a tool error, and cuts a 10 MB file to the cap', async () => {
    const folder = useTempDir('switchyard-mcp-files-');
    mkdirSync(join(folder, 'notes'));
    writeFileSync(join(folder, 'notes', 'a.txt'), 'alpha');
    writeFileSync(join(folder, 'huge.txt'), 'y'.repeat(10 * 1024 * 1024));
    const server = connect(filesystemStdio(folder));
    const tools = await server.readyTools();
    expect(tools?.find((tool) => tool.name === 'read_text_file')?.read_only).toBe(true);
    expect(tools?.find((tool) => tool.name === 'write_file')?.require_approval).toBe('always');

    const read = await server.callTool('read_text_file', { path: join(folder, 'notes', 'a.txt') }, {});
    expect(read).toMatchObject({ outcome: 'ok', truncated: false });
    expect(textOf(read)).toBe('alpha');

    const missing = await server.callTool('read_text_file', { path: join(folder, 'nope.txt') }, {});
    expect(missing).toMatchObject({ outcome: 'tool_error', isError: true });
    expect(textOf(missing)).toMatch(/ENOENT|no such file/i);

    const huge = await server.callTool('read_text_file', { path: join(folder, 'huge.txt') }, {});
    expect(huge).toMatchObject({ outcome: 'ok', truncated: true });
    expect(JSON.stringify(huge.content).length).toBeLessThan(101_000);
  });
});

describe('McpConnection: server-everything over Streamable HTTP', () => {
  it('connects where server.url_fetch_allow admits the address, and lists and calls tools', async () => {
    const { url, port } = await useEverythingHttp();
    const server = connect({ id: 'remote', url }, [`127.0.0.1:${port}`]);
    const tools = await server.readyTools();
    expect(server.status()).toMatchObject({ transport: 'http', state: 'ready' });
    expect(tools?.map((tool) => tool.name)).toContain('echo');
    expect(textOf(await server.callTool('echo', { message: 'over http' }, {}))).toBe('Echo: over http');
  });

  it('refuses a loopback URL the policy does not admit, before connecting', async () => {
    const { url, port } = await useEverythingHttp();
    const server = connect({ id: 'remote', url });
    expect(await server.readyTools()).toBeUndefined();
    expect(server.status()).toMatchObject({
      state: 'failed',
      error: `the gateway does not connect to 127.0.0.1:${port}: it is a loopback address. Add the address to server.url_fetch_allow in the config file if you trust this server.`,
    });
  });

  it('falls back to the legacy HTTP+SSE transport for a server that speaks only that', async () => {
    const { url, port } = await useEverythingHttp('sse');
    const server = connect({ id: 'legacy', url }, [`127.0.0.1:${port}`]);
    expect((await server.readyTools())?.map((tool) => tool.name)).toContain('echo');
    expect(textOf(await server.callTool('echo', { message: 'over sse' }, {}))).toBe('Echo: over sse');
  });
});
