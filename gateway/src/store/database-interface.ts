import type { CompiledQuery, Kysely } from 'kysely';
import type { Tables } from './tables.js';

/** Which database the gateway runs on: SQLite (the embedded default) or PostgreSQL (team mode). */
export type Dialect = 'sqlite' | 'postgres';

/** The gateway's database: the query builder over it, which kind it is, and its lifecycle. */
export interface Database {
  readonly query: Kysely<Tables>;
  readonly dialect: Dialect;
  /**
   * Runs the statements in one transaction, all or none; resolves once it is committed. On SQLite the
   * transaction runs in one synchronous call: nothing else in the process runs in between, so two
   * connections to one file in one process (several gateways in a test) never wait on each other's
   * open transaction. For the small commits answers wait for (the ledger's).
   */
  atomically(statements: readonly CompiledQuery[]): Promise<void>;
  /**
   * The same for large writes no answer waits for (the request log's batches): on SQLite the
   * transaction runs on a writer thread (sqlite-writer.ts), so it never stalls the event loop for
   * milliseconds; on PostgreSQL it is `atomically`.
   */
  atomicallyInBackground(statements: readonly CompiledQuery[]): Promise<void>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
