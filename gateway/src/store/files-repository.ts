import type { Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';
import { sql, type SqlBool } from 'kysely';

export type FileRecord = Row<'files'>;

export class FilesRepository {
  constructor(private readonly db: Database) {}

  async insert(record: FileRecord): Promise<void> {
    await this.db.query.insertInto('files').values(record).execute();
  }

  /** The file, when it exists and is inside `scope` (no scope: any file). */
  async get(id: string, scope?: OwnerScope): Promise<FileRecord | undefined> {
    const found = await this.db.query.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    return found && inScope(found.key_id, scope) ? found : undefined;
  }

  /** Newest first, paged by `after` (an id) and `limit`, only files inside `scope`. */
  async list(options: { purpose?: string; limit: number; after?: string; scope?: OwnerScope }): Promise<FileRecord[]> {
    const purpose = options.purpose ? sql<SqlBool>`purpose = ${options.purpose}` : undefined;
    const after = options.after ? await this.get(options.after) : undefined;
    return newestFirst(this.db, 'files', options.limit, after, [purpose, ownerCondition(options.scope)]);
  }

  /** How many files `keyId` keeps, and their bytes together. */
  async storedBy(keyId: string): Promise<{ count: number; bytes: number }> {
    const row = await this.db.query
      .selectFrom('files')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.coalesce(eb.fn.sum<number>('bytes'), sql<number>`0`).as('bytes'),
      ])
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async delete(id: string): Promise<void> {
    await this.db.query.deleteFrom('files').where('id', '=', id).execute();
  }
}
