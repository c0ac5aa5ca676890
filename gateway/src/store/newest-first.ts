import type { Database } from './database.js';

/**
 * One page of a table's rows, newest first (created_at, then id), after the row `after` when given:
 * the listing order every `GET` list endpoint uses.
 */
export function newestFirst(
  db: Database,
  table: 'files' | 'batches' | 'agents' | 'conversations',
  limit: number,
  after?: { created_at: number; id: string },
  where: ({ sql: string; params: unknown[] } | undefined)[] = [],
): unknown[] {
  const present = where.filter((condition) => condition !== undefined);
  const conditions = [...present.map((condition) => condition.sql), ...(after ? ['(created_at < ? OR (created_at = ? AND id < ?))'] : [])];
  const params = [...present.flatMap((condition) => condition.params), ...(after ? [after.created_at, after.created_at, after.id] : []), limit];
  const clause = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return db.prepare(`SELECT * FROM ${table} ${clause} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...params);
}
