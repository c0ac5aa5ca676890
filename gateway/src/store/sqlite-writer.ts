import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/** Statements prepared this many at most are kept: the ledger's group commits repeat a few dozen SQL texts (one per batch size). */
export const PREPARED_CAPACITY = 128;
/** How often the writer thread copies the log's committed pages into the database file. */
const CHECKPOINT_MS = 1000;

/**
 * The writer thread's whole program (plain JavaScript, run with `eval`, so it starts the same from the
 * TypeScript sources and from the build): its own connection to the database file, each message one
 * transaction, every SQL text prepared once.
 */
const WRITER_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Libsql = require(workerData.libsql);
const db = new Libsql(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
const prepared = new Map();
function statement(text) {
  let found = prepared.get(text);
  if (!found) {
    if (prepared.size >= workerData.capacity) prepared.delete(prepared.keys().next().value);
    prepared.set(text, (found = db.prepare(text)));
  }
  return found;
}
// Folds the log's committed pages into the database file off the event loop (see the class comment).
const checkpoints = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next turn (or the event loop's own checkpoint) does it.
  }
}, workerData.checkpointMs);
const write = db.transaction((statements) => {
  for (const [text, parameters] of statements) statement(text).run(parameters);
});
parentPort.on('message', ({ id, statements }) => {
  if (id === 'close') {
    clearInterval(checkpoints);
    db.close();
    parentPort.postMessage({ id });
    return;
  }
  try {
    write(statements);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String((error && error.message) || error), code: error && error.code } });
  }
});
`;

/**
 * Where the thread loads libsql from. In the packaged app the module sits in app.asar.unpacked
 * (build/electron-builder.yml), and a worker thread is not promised Electron's archive redirection.
 */
function libsqlPath(): string {
  return createRequire(import.meta.url)
    .resolve('libsql')
    .replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

interface Waiting {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Runs SQLite transactions on a thread of their own, with a second connection to the same file (WAL:
 * readers on the event loop's connection are never blocked by it). For big writes nobody waits for:
 * the request log's batch of bodies, every 250 ms, held the event loop for milliseconds, which every
 * request in flight then waited out. The ledger's small commits stay on the event loop: measured both
 * ways (docs/performance.md), the hop to this thread and back cost more than the commit itself.
 *
 * The thread also checkpoints the log every second (PASSIVE: it never blocks a commit): copying
 * the pages and the fsyncs that go with it, 5 to 13 ms each time, had stalled every request in flight
 * whenever a ledger commit crossed the event loop's autocheckpoint. That one stays, at a higher mark,
 * as the backstop (database.ts): under commits without a pause a checkpoint here never quite catches
 * up, the log cannot start over, and the event loop's own checkpoint, with little left to copy, lets it.
 *
 * The thread starts with the first write (`start`): an idle gateway does not pay for it.
 */
export class SqliteWriter {
  private worker: Worker | undefined;
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private closing: Promise<void> | undefined;

  constructor(private readonly file: string) {}

  /** Starts the thread (and its checkpoints) if it is not running. */
  start(): void {
    if (!this.closing) this.started();
  }

  /** Runs the statements in one transaction on the writer thread: all or none. */
  run(statements: readonly CompiledQuery[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('The database is closed.'));
    const worker = this.started();
    const id = ++this.lastId;
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, statements: statements.map((statement) => [statement.sql, statement.parameters]) });
    });
  }

  /** Lets the writes already sent finish, then closes the writer's connection and stops its thread. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.ref();
      this.waiting.set(0, { resolve, reject: () => resolve() });
      worker.postMessage({ id: 'close' });
    });
    await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WRITER_PROGRAM, {
      eval: true,
      workerData: { file: this.file, libsql: libsqlPath(), capacity: PREPARED_CAPACITY, checkpointMs: CHECKPOINT_MS },
      // Short-lived objects are few (a batch's strings go to the large-object space): a small young
      // generation keeps the thread's memory down. The old generation is not capped: a batch of bodies
      // can be tens of megabytes.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    worker.on('message', (message: { id: number | 'close'; error?: { message: string; code?: string } }) =>
      this.answered(message),
    );
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => this.failAll(new Error(`The database writer thread stopped (exit code ${code}).`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answered({ id, error }: { id: number | 'close'; error?: { message: string; code?: string } }): void {
    const key = id === 'close' ? 0 : id;
    const waiting = this.waiting.get(key);
    this.waiting.delete(key);
    if (this.waiting.size === 0) this.worker?.unref();
    if (!waiting) return;
    if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
    else waiting.resolve();
  }

  /** The thread is gone: every write still waiting fails (the ledger keeps its entries and retries). */
  private failAll(error: Error): void {
    this.worker = undefined;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const each of waiting) each.reject(error);
  }
}
