import { rows, type Database } from './database.js';

/** One logged request, as the console's request log shows it. */
export interface RequestLogEntry {
  id: string;
  time: number;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key_prefix: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cost: number | null;
  /** Who sent it, from the X-Switchyard-Client header (the console sends `console` on its own calls). */
  client: string | null;
  /** Request headers, credentials redacted. */
  request_headers?: Record<string, string>;
  request_body?: string;
  response_body?: string;
  /** The gateway instance that served it (team mode runs several). */
  instance_id?: string;
}

/** The console's request log on disk, so it survives a restart; the in-memory ring stays the fast path. */
export class RequestLogRepository {
  constructor(private readonly db: Database) {}

  insertMany(entries: readonly RequestLogEntry[]): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO request_log (id, time, entry) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const entry of entries) insert.run(entry.id, entry.time, JSON.stringify(entry));
    })();
  }

  /** Newest first. */
  recent(limit: number): RequestLogEntry[] {
    return rows<{ entry: string }>(this.db.prepare('SELECT entry FROM request_log ORDER BY time DESC LIMIT ?').all(limit)).map(
      (stored) => JSON.parse(stored.entry) as RequestLogEntry,
    );
  }

  /** Drops entries older than `before` (ms) and all but the newest `keep`. */
  prune(before: number, keep: number): void {
    this.db.prepare('DELETE FROM request_log WHERE time < ?').run(before);
    this.db.prepare('DELETE FROM request_log WHERE id NOT IN (SELECT id FROM request_log ORDER BY time DESC LIMIT ?)').run(keep);
  }
}
