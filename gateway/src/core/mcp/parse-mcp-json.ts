import { GatewayError } from '../errors/gateway-error.js';
import type { McpServerConfig } from '../../wire/mcp-server-schemas.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || Object.values(value).some((entry) => typeof entry !== 'string'))
    throw invalid(`${where} must be an object of strings`);
  return value as Record<string, string>;
}

function invalid(message: string): GatewayError {
  return new GatewayError(422, 'invalid_mcp_json', `mcp.json: ${message}.`, { param: 'mcpServers' });
}

/** A server name as an id: the characters an id allows, others as `-`. */
export function mcpServerIdFrom(name: string): string {
  return (
    name
      .trim()
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'server'
  );
}

/**
 * The servers of an `mcp.json` as LM Studio and Claude Desktop write it, `{"mcpServers": {"name":
 * {"command", "args", "env"} | {"url", "headers"}}}`, as the gateway's entries (the name becomes the
 * id). Keys other clients add (`type`, `disabled`...) are ignored, a `"disabled": true` server too.
 */
export function parseMcpJson(document: unknown): McpServerConfig[] {
  if (!isObject(document) || !isObject(document.mcpServers))
    throw invalid('expected an object with "mcpServers": {"<name>": {"command": ...} or {"url": ...}}');
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(document.mcpServers)) {
    const where = `mcpServers["${name}"]`;
    if (!isObject(entry)) throw invalid(`${where} must be an object`);
    if (entry.disabled === true) continue;
    const { command, args, url, cwd } = entry;
    if (command !== undefined && typeof command !== 'string') throw invalid(`${where}.command must be a string`);
    if (url !== undefined && typeof url !== 'string') throw invalid(`${where}.url must be a string`);
    if (cwd !== undefined && typeof cwd !== 'string') throw invalid(`${where}.cwd must be a string`);
    if (args !== undefined && (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')))
      throw invalid(`${where}.args must be an array of strings`);
    const env = strings(entry.env, `${where}.env`);
    const headers = strings(entry.headers, `${where}.headers`);
    servers.push({
      id: mcpServerIdFrom(name),
      ...(command !== undefined ? { command } : {}),
      ...(args !== undefined ? { args: args as string[] } : {}),
      ...(env ? { env } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(headers ? { headers } : {}),
    });
  }
  return servers;
}
