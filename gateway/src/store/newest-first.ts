import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from './database.js';
import type { Row } from './tables.js';

type Listed = 'files' | 'batches' | 'agents' | 'conversations';

/**
 * One page of a table's rows, newest first (created_at, then id), after the row `after` when given
 * and past the first `offset` rows (pages by number): the listing order every `GET` list endpoint uses.
 */
export async function newestFirst<T extends Listed>(
  db: Database,
  table: T,
  limit: number,
  after?: { created_at: number; id: string },
  where: (RawBuilder<SqlBool> | undefined)[] = [],
  offset = 0,
): Promise<Row<T>[]> {
  const conditions = where.filter((condition) => condition !== undefined);
  if (after)
    conditions.push(
      sql<SqlBool>`(created_at < ${after.created_at} OR (created_at = ${after.created_at} AND id < ${after.id}))`,
    );
  let query = db.query.selectFrom(table as Listed).selectAll();
  for (const condition of conditions) query = query.where(condition);
  // The four tables share the columns used here; the rows are the table's own.
  const page = query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  return (await (offset > 0 ? page.offset(offset) : page).execute()) as Row<T>[];
}
