import type { Database } from './database.js';
import { MultiRowInsert } from './multi-row-insert.js';
import type { Tables } from './tables.js';
import type { RequestLogEntry } from '../wire/request-log-entry-schema.js';

export type { RequestLogEntry };

/** Rows per INSERT: three values each, well under both databases' limits of bound parameters. */
const ROWS_PER_INSERT = 500;

/** The console's request log on disk, so it survives a restart; the in-memory ring stays the fast path. */
export class RequestLogRepository {
  /** The log's INSERT, its SQL kept per row count. */
  private readonly insert = new MultiRowInsert<Tables['request_log']>(
    'request_log',
    ['id', 'time', 'entry'],
    ' ON CONFLICT ("id") DO UPDATE SET "time" = "excluded"."time", "entry" = "excluded"."entry"',
  );

  constructor(private readonly db: Database) {}

  /** Stores the entries in one transaction, off the event loop on SQLite (a batch of bodies takes milliseconds). */
  async insertMany(entries: readonly RequestLogEntry[]): Promise<void> {
    // A client may reuse a request id (X-Request-Id): the last entry with an id wins, as one row.
    const latest = [...new Map(entries.map((entry) => [entry.id, entry])).values()];
    if (latest.length === 0) return;
    const rows = latest.map((entry) => ({ id: entry.id, time: entry.time, entry: JSON.stringify(entry) }));
    const statements = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
      statements.push(this.insert.compile(this.db.dialect, rows.slice(start, start + ROWS_PER_INSERT)));
    await this.db.atomicallyInBackground(statements);
  }

  /** Newest first. */
  async recent(limit: number): Promise<RequestLogEntry[]> {
    const stored = await this.db.query
      .selectFrom('request_log')
      .select('entry')
      .orderBy('time', 'desc')
      .limit(limit)
      .execute();
    return stored.map((row) => JSON.parse(row.entry) as RequestLogEntry);
  }

  /** One entry by id (another instance's, with the bodies it kept). */
  async get(id: string): Promise<RequestLogEntry | undefined> {
    const row = await this.db.query.selectFrom('request_log').select('entry').where('id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.entry) as RequestLogEntry) : undefined;
  }

  /** Drops entries older than `before` (ms) and all but the newest `keep`. */
  async prune(before: number, keep: number): Promise<void> {
    // Off the event loop too: a minute's entries under load are hundreds of thousands of rows to delete.
    await this.db.atomicallyInBackground([
      this.db.query.deleteFrom('request_log').where('time', '<', before).compile(),
      this.db.query
        .deleteFrom('request_log')
        .where('id', 'not in', (eb) => eb.selectFrom('request_log').select('id').orderBy('time', 'desc').limit(keep))
        .compile(),
    ]);
  }
}
