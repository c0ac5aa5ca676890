import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioProcessOptions {
  command: string;
  args: string[];
  /** The process's whole environment (the SDK's own transport always adds HOME, USER, SHELL...). */
  env: Record<string, string>;
  cwd?: string;
  /** Longest one message may be, in bytes; a longer one ends the connection. */
  maxMessageBytes: number;
}

/** How long a server may take to exit after its stdin closes, then after SIGTERM, before it is killed. */
const EXIT_GRACE_MS = 2_000;
const STDERR_TAIL_CHARS = 2_000;

/**
 * An MCP stdio transport over a child process the gateway owns: the environment is exactly the one
 * given, the process leads its own process group so closing it also ends what it started (an `npx`
 * wrapper's node), a message is read in pieces without copying the buffer on every chunk, and the
 * last lines of its stderr say why it died.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stderrTail = '';
  private exit: Promise<void> = Promise.resolve();
  /** Why the process ended on its own, in words for the server's error (undefined when the gateway ended it). */
  exitReason: string | undefined;
  private closing = false;

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The end of what the process wrote to stderr. */
  stderr(): string {
    return this.stderrTail.trim();
  }

  start(): Promise<void> {
    // Closed before it started (the gateway stopped while a restart was on its way): nothing is spawned.
    if (this.closing) return Promise.reject(new Error('the server was stopped before it started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      this.exit = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        this.exitReason = `could not start "${this.options.command}": ${error.message}`;
        reject(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        if (!this.closing)
          this.exitReason ??= signal ? `the process was ended by ${signal}` : `the process exited with code ${code}`;
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr!.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      // A write to a process that just died: its close says why.
      child.stdin!.on('error', () => undefined);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin (an MCP server exits then), then SIGTERM, then SIGKILL to the process group. */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    for (const signal of [undefined, 'SIGTERM', 'SIGKILL'] as const) {
      if (signal) this.signal(child, signal);
      const ended = await Promise.race([
        this.exit.then(() => true),
        new Promise<false>((resolve) => setTimeout(resolve, EXIT_GRACE_MS, false).unref()),
      ]);
      if (ended) break;
    }
    // The group may outlive its leader (a wrapper's children): end them too.
    this.signal(child, 'SIGKILL');
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      if (process.platform === 'win32') child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
      if (line.trim() !== '') this.deliver(line);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.options.maxMessageBytes) {
        this.pending = [];
        this.pendingBytes = 0;
        this.exitReason = `the server sent a message larger than ${Math.round(this.options.maxMessageBytes / 1_048_576)} MB`;
        this.onerror?.(new Error(this.exitReason));
        void this.close();
      }
    }
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      // Servers that log to stdout: the line is not a message, the connection goes on.
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }
}
