import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  MCP_DEFAULTS,
  type McpServerConfig,
  type McpTool,
  type McpServerStatus,
} from '../../wire/mcp-server-schemas.js';
import type { McpCallOutcomeName } from '../../wire/mcp-server-schemas.js';
import type { AddressPolicy } from '../url-fetch/address-policy.js';
import { UrlRefusedError } from '../url-fetch/fetch-client-url.js';
import { policyCheckedFetch } from '../url-fetch/policy-checked-fetch.js';
import { capToolResult, type ContentBlock } from './cap-tool-result.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';

type McpClientSdk = typeof import('./mcp-client-sdk.js');

export interface McpLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface McpConnectionDeps {
  urlPolicy: AddressPolicy;
  /** The gateway's version, sent as the client's in `initialize`. */
  version: string;
  log: McpLogger;
  /** PATH handed to stdio servers (the only variable of the gateway's own environment they get). */
  path: string | undefined;
}

/** A tool the server listed whose definition could not be read: left out, with why. */
export interface SkippedTool {
  name: string;
  reason: string;
}

export interface ToolCallResult {
  outcome: McpCallOutcomeName;
  isError: boolean;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  durationMs: number;
  truncated: boolean;
}

/** Longest a single message of a stdio server may be: past the output cap, so a huge result is cut, not refused. */
const MAX_STDIO_MESSAGE_BYTES = 64 * 1_048_576;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
/** A server that ran this long before it died starts again with the shortest backoff. */
const STABLE_AFTER_MS = 60_000;
const MAX_TOOL_PAGES = 50;
/** Starting a server (an `npx` download, a slow interpreter) and listing its tools may take longer than one call. */
const MIN_START_TIMEOUT_MS = 30_000;
/** Longest close() waits for a start in progress to fail after its process was ended. */
const CLOSE_WAIT_MS = 3_000;

/** The delay before the `failures`th retry: 1 s, 2 s, 4 s ... up to a minute. */
export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

function text(message: string): ContentBlock[] {
  return [{ type: 'text', text: message }];
}

/**
 * One configured MCP server and the gateway's client session with it: started on first use, its
 * tool list cached and read again when the server says it changed, a stdio process started again
 * with backoff when it dies, closed with the gateway (or when its configuration changes).
 */
export class McpConnection {
  private state: 'idle' | 'starting' | 'ready' | 'failed' = 'idle';
  private error: string | undefined;
  private tools: McpTool[] = [];
  private skipped: SkippedTool[] = [];
  private client: Client | undefined;
  private sdk: McpClientSdk | undefined;
  private starting: Promise<void> | undefined;
  private failures = 0;
  private retryAt = 0;
  private readyAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private releaseFetch: (() => Promise<void>) | undefined;
  private stdio: StdioProcessTransport | undefined;

  constructor(
    readonly config: McpServerConfig,
    private readonly deps: McpConnectionDeps,
  ) {}

  get transport(): 'stdio' | 'http' {
    return this.config.command ? 'stdio' : 'http';
  }

  /** The stdio server's process id while it runs. */
  get pid(): number | undefined {
    return this.stdio?.pid;
  }

  /** As GET /v1/mcp/servers shows it; a server not started yet shows as starting. */
  status(): McpServerStatus & { skipped_tools?: SkippedTool[] } {
    return {
      id: this.config.id,
      transport: this.transport,
      state: this.state === 'idle' ? 'starting' : this.state,
      ...(this.state === 'failed' && this.error ? { error: this.error } : {}),
      tools: this.state === 'ready' ? this.tools : [],
      ...(this.state === 'ready' && this.skipped.length > 0 ? { skipped_tools: this.skipped } : {}),
    };
  }

  /** The server's tools once it is ready; undefined while it cannot be reached (status() says why). */
  async readyTools(): Promise<McpTool[] | undefined> {
    await this.ensureReady();
    return this.state === 'ready' ? this.tools : undefined;
  }

  /** Starts the server unless it runs, is starting, or failed less than its backoff ago. */
  async ensureReady(): Promise<void> {
    if (this.closed || this.state === 'ready') return;
    if (this.starting) return this.starting;
    if (this.state === 'failed' && Date.now() < this.retryAt) return;
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /**
   * Calls a tool the server listed. Whatever happens on the server's side (it fails, is too slow, dies,
   * the caller goes away) is an outcome with a message, never a throw.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult> {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? this.config.timeout_ms ?? MCP_DEFAULTS.timeout_ms;
    const finish = (outcome: McpCallOutcomeName, content: ContentBlock[], extra: Partial<ToolCallResult> = {}) => ({
      outcome,
      isError: outcome !== 'ok',
      content,
      truncated: false,
      ...extra,
      durationMs: Math.round(performance.now() - started),
    });
    const { client, sdk } = this;
    if (this.state !== 'ready' || !client || !sdk)
      return finish(
        'failed',
        text(`The MCP server "${this.config.id}" is not available: ${this.error ?? 'not started'}`),
      );
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
      });
      const capped = capToolResult(
        {
          content: (result.content ?? []) as ContentBlock[],
          structuredContent: result.structuredContent as Record<string, unknown> | undefined,
        },
        this.config.max_output_chars ?? MCP_DEFAULTS.max_output_chars,
        this.config.id,
      );
      return finish(result.isError === true ? 'tool_error' : 'ok', capped.content, {
        truncated: capped.truncated,
        ...(capped.structuredContent ? { structuredContent: capped.structuredContent } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted)
        return finish('cancelled', text(`The call of "${name}" was cancelled: the caller went away.`));
      const { McpError, ErrorCode } = sdk;
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout))
        return finish('timeout', text(`The tool "${name}" took longer than ${timeoutMs / 1000} s and was cancelled.`));
      const why =
        error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed)
          ? `the server stopped (${this.error ?? 'connection closed'})`
          : (error as Error).message;
      return finish('failed', text(`The tool "${name}" failed: ${why}`));
    }
  }

  /** Stops the server for good (the gateway stops, or the entry changed or was removed). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    // Ending the process (or the HTTP connections) first makes a start in progress fail at once; one
    // that does not notice (a restart caught between its spawn and its first message) is not waited
    // on past CLOSE_WAIT_MS: it sees `closed` when it ends.
    await this.disconnect();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.starting?.catch(() => undefined),
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    await this.disconnect();
  }

  private async start(): Promise<void> {
    this.state = 'starting';
    this.error = undefined;
    try {
      const sdk = (this.sdk ??= await import('./mcp-client-sdk.js'));
      const client = await this.connect(sdk);
      this.client = client;
      await this.loadTools(sdk, client);
      if (this.closed) {
        await this.disconnect();
        return;
      }
      this.state = 'ready';
      this.readyAt = Date.now();
      this.deps.log.info({ mcpServer: this.config.id, tools: this.tools.length }, 'MCP server ready');
    } catch (error) {
      const reason = this.failureReason(error);
      await this.disconnect();
      if (!this.closed) this.fail(reason);
    }
  }

  private async connect(sdk: McpClientSdk): Promise<Client> {
    const timeout = this.startTimeout();
    if (this.config.command) {
      const transport = new sdk.StdioProcessTransport({
        command: this.config.command,
        args: this.config.args ?? [],
        env: { ...(this.deps.path !== undefined ? { PATH: this.deps.path } : {}), ...this.config.env },
        cwd: this.config.cwd,
        maxMessageBytes: MAX_STDIO_MESSAGE_BYTES,
      });
      this.stdio = transport;
      return this.session(sdk, transport, timeout);
    }
    const url = new URL(this.config.url!);
    const checked = policyCheckedFetch(url, {
      policy: this.deps.urlPolicy,
      param: `mcp_servers.${this.config.id}.url`,
    });
    this.releaseFetch = checked.close;
    const requestInit = { headers: this.config.headers ?? {} };
    try {
      return await this.session(
        sdk,
        new sdk.StreamableHTTPClientTransport(url, { fetch: checked.fetch, requestInit }),
        timeout,
      );
    } catch (error) {
      // The legacy HTTP+SSE transport answers a Streamable HTTP POST with 4xx (the SDK's documented fallback).
      if (!(error instanceof sdk.StreamableHTTPError) || !error.code || error.code < 400 || error.code >= 500)
        throw error;
      return this.session(sdk, new sdk.SSEClientTransport(url, { fetch: checked.fetch, requestInit }), timeout);
    }
  }

  private async session(sdk: McpClientSdk, transport: Transport, timeout: number): Promise<Client> {
    const client = new sdk.Client({ name: 'switchyard', version: this.deps.version }, { capabilities: {} });
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      void this.loadTools(sdk, client).catch((error: unknown) =>
        this.deps.log.warn({ mcpServer: this.config.id, err: error }, 'MCP server: tool list not read again'),
      );
    });
    client.onerror = () => undefined;
    try {
      await client.connect(transport, { timeout });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    client.onclose = () => {
      if (this.client === client) this.lost();
    };
    return client;
  }

  /** Reads the tool list page by page; a tool whose definition does not parse is left out and named. */
  private async loadTools({ ResultSchema, ToolSchema }: McpClientSdk, client: Client): Promise<void> {
    const tools: McpTool[] = [];
    const skipped: SkippedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const result = await client.request(
        { method: 'tools/list', params: cursor ? { cursor } : {} },
        ResultSchema.passthrough(),
        { timeout: this.startTimeout() },
      );
      for (const raw of Array.isArray(result.tools) ? (result.tools as unknown[]) : []) {
        const parsed = ToolSchema.safeParse(raw);
        if (!parsed.success) {
          const name = (raw as { name?: unknown } | null)?.name;
          skipped.push({
            name: typeof name === 'string' ? name : '(no name)',
            reason: parsed.error.issues
              .map((issue) => `${issue.path.join('.') || 'tool'}: ${issue.message}`)
              .join('; ')
              .slice(0, 500),
          });
          continue;
        }
        const readOnly = parsed.data.annotations?.readOnlyHint === true;
        tools.push({
          name: parsed.data.name,
          description: parsed.data.description ?? '',
          input_schema: parsed.data.inputSchema as Record<string, unknown>,
          read_only: readOnly,
          require_approval: readOnly ? 'never' : 'always',
        });
      }
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (!cursor) break;
    }
    if (this.client !== client) return;
    this.tools = tools;
    this.skipped = skipped;
  }

  /** The session ended without the gateway closing it: the process died or the HTTP server went away. */
  private lost(): void {
    if (this.closed) return;
    const reason = this.stdioReason() ?? 'the connection closed';
    if (Date.now() - this.readyAt > STABLE_AFTER_MS) this.failures = 0;
    this.client = undefined;
    void this.disconnect();
    this.fail(`stopped: ${reason}`);
    if (this.transport === 'stdio') {
      // The timer's clock may fire a little before `retryAt` by Date.now(), which would make
      // ensureReady wait for a call that never comes: the timer is the retry, so it starts now.
      this.restartTimer = setTimeout(() => {
        this.retryAt = 0;
        void this.ensureReady();
      }, retryDelay(this.failures));
      this.restartTimer.unref();
    }
  }

  private fail(reason: string): void {
    this.failures += 1;
    this.state = 'failed';
    this.error = reason;
    this.retryAt = Date.now() + retryDelay(this.failures);
    this.deps.log.warn({ mcpServer: this.config.id, failures: this.failures }, `MCP server failed: ${reason}`);
  }

  private startTimeout(): number {
    return Math.max(MIN_START_TIMEOUT_MS, this.config.timeout_ms ?? MCP_DEFAULTS.timeout_ms);
  }

  private failureReason(error: unknown): string {
    const stdio = this.stdioReason();
    if (stdio) return stdio;
    for (let current = error; current; current = (current as { cause?: unknown }).cause) {
      if (current instanceof UrlRefusedError)
        return `the gateway does not connect to ${current.url.host}: ${current.reason}. Add the address to server.url_fetch_allow in the config file if you trust this server.`;
    }
    return (error as Error).message || String(error);
  }

  /** Why a stdio process ended, with the end of its stderr. */
  private stdioReason(): string | undefined {
    const transport = this.stdio;
    if (!transport?.exitReason) return undefined;
    const stderr = transport.stderr();
    return stderr ? `${transport.exitReason}: ${stderr}` : transport.exitReason;
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await this.stdio?.close();
    await this.releaseFetch?.().catch(() => undefined);
    this.releaseFetch = undefined;
  }
}
