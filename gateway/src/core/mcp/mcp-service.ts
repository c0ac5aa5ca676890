import { isDeepStrictEqual } from 'node:util';
import { GatewayError } from '../errors/gateway-error.js';
import {
  MCP_DEFAULTS,
  mcpServerShapeProblem,
  type McpServerConfig,
  type McpServerStatus,
  type McpTool,
} from '../../wire/mcp-server-schemas.js';
import { McpConnection, type McpConnectionDeps, type SkippedTool, type ToolCallResult } from './mcp-connection.js';
import type { McpServerStore } from './mcp-server-store.js';
import { parseMcpJson } from './parse-mcp-json.js';

/** Who is asking: Owners may use every server, other keys those an Owner allowed them. */
export interface McpCaller {
  id: string;
  role: 'owner' | 'member';
}

/** One tool call as it starts, for what records it (the request's trace: a span `execute_tool {tool}`). */
export interface McpCallStart {
  server: string;
  tool: string;
  keyId: string;
}

/** Told when a call starts; the function it returns is told how the call ended (outcome, duration). */
export type McpCallObserver = (call: McpCallStart) => (result: ToolCallResult) => void;

/** One server as a request's tool loop uses it: its tools, and calls of them (closed after the request). */
export interface McpSession {
  listTools(): Promise<McpTool[]>;
  callTool(tool: string, args: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<ToolCallResult>;
  close(): Promise<void>;
}

/** A server's entry as the console edits it: secrets by name only. */
export interface McpServerSetting {
  id: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  /** The names of the environment variables set; their values never leave the gateway. */
  env_names: string[];
  /** The names of the headers sent; their values never leave the gateway. */
  header_names: string[];
  allowed_keys: 'all' | string[];
  timeout_ms: number;
  max_output_chars: number;
  source: 'config' | 'console';
  /** The config file defines this id (POST .../reset brings the file's entry back). */
  in_config: boolean;
  /** A config-file server removed in the console: not offered until it is reset. */
  removed: boolean;
}

/**
 * A server's fields as the console sends them. In `env` and `headers`, an empty value keeps the
 * value stored under that name (the console never sees it); absent maps keep all of them.
 */
export type McpServerInput = Omit<McpServerConfig, 'id'>;

/** How long GET /v1/mcp/servers waits for servers to start before it lists them as starting. */
const DEFAULT_LIST_WAIT_MS = 10_000;

interface Deps extends McpConnectionDeps {
  fileServers: McpServerConfig[];
  /** See DEFAULT_LIST_WAIT_MS. */
  listWaitMs?: number;
  store: McpServerStore;
  observeCall?: McpCallObserver;
}

interface Entry {
  config: McpServerConfig;
  source: 'config' | 'console';
}

/**
 * The MCP servers the gateway can reach: the config file's `mcp_servers` under the console's stored
 * changes, one `McpConnection` each, and who may use which. A tool loop calls `listTools` and
 * `callTool`; the Owner's console lists, tries and edits them.
 */
export class McpService {
  private fileServers: ReadonlyMap<string, McpServerConfig>;
  private entries = new Map<string, Entry>();
  private removed = new Set<string>();
  private readonly connections = new Map<string, McpConnection>();
  private announce: () => void = () => undefined;

  constructor(private readonly deps: Deps) {
    this.fileServers = new Map(deps.fileServers.map((config) => [config.id, config]));
  }

  /** Reads the stored changes and applies them: at start and after every change. */
  async reload(): Promise<void> {
    const stored = await this.deps.store.read();
    const entries = new Map<string, Entry>();
    const removed = new Set<string>();
    for (const [id, config] of this.fileServers) entries.set(id, { config, source: 'config' });
    for (const [id, config] of stored) {
      if (config) entries.set(id, { config, source: 'console' });
      else if (this.fileServers.has(id)) {
        entries.delete(id);
        removed.add(id);
      }
    }
    this.entries = entries;
    this.removed = removed;
    // A server whose entry changed or went away stops; the new entry starts on its next use.
    for (const [id, connection] of this.connections) {
      if (isDeepStrictEqual(entries.get(id)?.config, connection.config)) continue;
      this.connections.delete(id);
      await connection.close();
    }
  }

  /** Sends a note after every change this instance makes (team mode tells the other instances, which `reload`). */
  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** The config file was read again (SIGHUP): its servers become the base the console's changes lie over. */
  async useConfigFile(servers: McpServerConfig[]): Promise<void> {
    this.fileServers = new Map(servers.map((config) => [config.id, config]));
    await this.reload();
  }

  // --- use ---

  /**
   * The servers the caller may use (an Owner: every one) with their state and tools. Servers not
   * started yet are started (in parallel); one still starting after `listWaitMs` is listed as
   * starting, so a slow server never holds the list. Why a server failed (its command, its stderr)
   * is for Owners only.
   */
  async listServers(caller: McpCaller): Promise<(McpServerStatus & { skipped_tools?: SkippedTool[] })[]> {
    const ids = [...this.entries.keys()].filter((id) => this.mayUse(id, caller)).sort();
    const connections = ids.map((id) => this.connection(id));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(connections.map((connection) => connection.ensureReady())),
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.deps.listWaitMs ?? DEFAULT_LIST_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    const statuses = connections.map((connection) => connection.status());
    return caller.role === 'owner' ? statuses : statuses.map(({ error: _why, ...status }) => status);
  }

  /** A server's tools for a caller allowed to use it; 502 while the server cannot be reached. */
  async listTools(serverId: string, caller: McpCaller): Promise<McpTool[]> {
    return readyToolsOf(serverId, this.usable(serverId, caller));
  }

  /** A configured server the caller may use (404 otherwise), for one request's tool loop; it stays running after. */
  session(serverId: string, caller: McpCaller): McpSession {
    this.usable(serverId, caller);
    return {
      listTools: () => this.listTools(serverId, caller),
      callTool: (tool, args, options) => this.callTool(serverId, tool, args, { caller, ...options }),
      close: () => Promise.resolve(),
    };
  }

  /**
   * A server a request names by its URL (the Responses API's `server_url`): a connection of its own
   * through the URL-fetch policy, for that request only; `close` ends it.
   */
  connectUrl(label: string, url: string, headers: Record<string, string> | undefined, caller: McpCaller): McpSession {
    const connection = new McpConnection({ id: label, url, ...(headers ? { headers } : {}) }, this.deps);
    return {
      listTools: () => readyToolsOf(label, connection),
      callTool: (tool, args, options) =>
        this.observed(label, tool, caller, () => connection.callTool(tool, args, options)),
      close: () => connection.close(),
    };
  }

  /**
   * Calls a tool: throws only for what the caller got wrong (an unknown or forbidden server, a tool the
   * server does not list); whatever goes wrong on the server's side is the result's outcome and text,
   * cut to the server's max_output_chars, within its timeout (or `timeoutMs`), stopped with `signal`.
   */
  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: { caller: McpCaller; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult> {
    const connection = this.usable(serverId, options.caller);
    const tools = await connection.readyTools();
    if (tools && !tools.some((tool) => tool.name === toolName)) {
      throw new GatewayError(
        404,
        'mcp_tool_not_found',
        `The MCP server "${serverId}" has no tool "${toolName}". Its tools: ${tools.map((tool) => tool.name).join(', ') || 'none'}.`,
        { param: 'tool' },
      );
    }
    return this.observed(serverId, toolName, options.caller, () => connection.callTool(toolName, args, options));
  }

  private async observed(
    server: string,
    tool: string,
    caller: McpCaller,
    call: () => Promise<ToolCallResult>,
  ): Promise<ToolCallResult> {
    const end = this.deps.observeCall?.({ server, tool, keyId: caller.id });
    const result = await call();
    end?.(result);
    return result;
  }

  /** Stops every server (the gateway stops). */
  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  // --- settings ---

  /** Every entry, and the config file's servers removed in the console (to be reset). */
  settings(): McpServerSetting[] {
    const removed = [...this.removed].map((id) => this.setting(this.fileServers.get(id)!, 'console', true));
    return [...[...this.entries.values()].map(({ config, source }) => this.setting(config, source)), ...removed].sort(
      (a, b) => a.id.localeCompare(b.id),
    );
  }

  async add(id: string, input: McpServerInput): Promise<McpServerSetting> {
    if (this.entries.has(id) || this.removed.has(id)) {
      throw new GatewayError(
        409,
        'mcp_server_exists',
        this.removed.has(id)
          ? `The config file defines an MCP server "${id}" that was removed here; restore it (POST /settings/mcp-servers/${id}/reset) or choose another id.`
          : `An MCP server "${id}" already exists; edit it instead.`,
        { param: 'id' },
      );
    }
    return this.save({ id, ...input }, undefined);
  }

  async edit(id: string, input: McpServerInput): Promise<McpServerSetting> {
    const current = this.entries.get(id);
    if (!current) throw this.notFound(id);
    return this.save({ id, ...input }, current.config);
  }

  /** Removes a server (a config-file server stays removed across restarts until it is reset). */
  async remove(id: string): Promise<void> {
    if (!this.entries.has(id)) throw this.notFound(id);
    if (this.fileServers.has(id)) await this.deps.store.markRemoved(id);
    else await this.deps.store.clear(id);
    await this.changed();
  }

  /** Drops the console's change to a config-file server: the file's entry applies again. */
  async reset(id: string): Promise<McpServerSetting> {
    const original = this.fileServers.get(id);
    if (!original)
      throw new GatewayError(404, 'mcp_server_not_in_config', `The config file has no MCP server "${id}".`, {
        param: 'id',
      });
    await this.deps.store.clear(id);
    await this.changed();
    return this.setting(original, 'config');
  }

  /** Adds the servers of an LM Studio / Claude Desktop `mcp.json`; one with an existing id replaces it. */
  async importMcpJson(document: unknown): Promise<McpServerSetting[]> {
    const servers = parseMcpJson(document);
    for (const server of servers) this.check(server);
    for (const server of servers) await this.deps.store.save(server);
    await this.changed();
    return servers.map((server) => this.setting(server, 'console'));
  }

  private async changed(): Promise<void> {
    await this.reload();
    this.announce();
  }

  private async save(config: McpServerConfig, current: McpServerConfig | undefined): Promise<McpServerSetting> {
    const merged = {
      ...config,
      ...(config.env ? { env: keepSecrets(config.env, current?.env) } : current?.env ? { env: current.env } : {}),
      ...(config.headers
        ? { headers: keepSecrets(config.headers, current?.headers) }
        : current?.headers
          ? { headers: current.headers }
          : {}),
    };
    // Moving between stdio and HTTP drops the other kind's secrets.
    if (merged.url) delete merged.env;
    if (merged.command) delete merged.headers;
    this.check(merged);
    await this.deps.store.save(merged);
    await this.changed();
    return this.setting(merged, 'console');
  }

  private check(config: McpServerConfig): void {
    const problem = mcpServerShapeProblem(config);
    if (problem)
      throw new GatewayError(422, 'invalid_mcp_server', `MCP server "${config.id}": ${problem}.`, {
        param: config.command ? 'command' : 'url',
      });
  }

  private setting(config: McpServerConfig, source: Entry['source'], removed = false): McpServerSetting {
    return {
      id: config.id,
      transport: config.command ? 'stdio' : 'http',
      ...(config.command ? { command: config.command, args: config.args ?? [] } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      ...(config.url ? { url: config.url } : {}),
      env_names: Object.keys(config.env ?? {}),
      header_names: Object.keys(config.headers ?? {}),
      allowed_keys: config.allowed_keys ?? [],
      timeout_ms: config.timeout_ms ?? MCP_DEFAULTS.timeout_ms,
      max_output_chars: config.max_output_chars ?? MCP_DEFAULTS.max_output_chars,
      source,
      in_config: this.fileServers.has(config.id),
      removed,
    };
  }

  /** The connection of a server the caller may use; an unknown and a forbidden server answer alike. */
  private usable(serverId: string, caller: McpCaller): McpConnection {
    if (!this.mayUse(serverId, caller)) throw this.notFound(serverId);
    return this.connection(serverId);
  }

  private mayUse(serverId: string, caller: McpCaller): boolean {
    const entry = this.entries.get(serverId);
    const allowed = entry?.config.allowed_keys;
    return !!entry && (caller.role === 'owner' || allowed === 'all' || !!allowed?.includes(caller.id));
  }

  private connection(id: string): McpConnection {
    let connection = this.connections.get(id);
    if (!connection) {
      connection = new McpConnection(this.entries.get(id)!.config, this.deps);
      this.connections.set(id, connection);
    }
    return connection;
  }

  private notFound(id: string): GatewayError {
    return new GatewayError(
      404,
      'mcp_server_not_found',
      `No MCP server "${id}" this key may use. An Owner lists them at GET /v1/mcp/servers and allows keys in the server's allowed_keys.`,
      { param: 'server' },
    );
  }
}

async function readyToolsOf(serverId: string, connection: McpConnection): Promise<McpTool[]> {
  const tools = await connection.readyTools();
  if (!tools) {
    throw new GatewayError(
      502,
      'mcp_server_unavailable',
      `The MCP server "${serverId}" is not available: ${connection.status().error ?? 'it is starting'}.`,
      { param: 'server' },
    );
  }
  return tools;
}

/** A new map of secrets where an empty value keeps the current value of that name. */
function keepSecrets(
  next: Record<string, string>,
  current: Record<string, string> | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(next)
      .map(([name, value]): [string, string | undefined] => [name, value === '' ? current?.[name] : value])
      .filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
