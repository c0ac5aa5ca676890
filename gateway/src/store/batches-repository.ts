import type { Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';

/** OpenAI's batch statuses; `cancelling` lasts while the line in flight at the cancel is stopped and the results are written. */
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** A batch as the gateway uses it: the stored row with its status typed and its JSON columns parsed. */
export type BatchRecord = Omit<Row<'batches'>, 'status' | 'metadata' | 'errors'> & {
  status: BatchStatus;
  metadata: Record<string, string>;
  /** Problems found while validating the input file. */
  errors: { line: number; message: string }[];
};

type StoredBatch = Row<'batches'>;

const fromStored = (stored: StoredBatch): BatchRecord => ({
  ...stored,
  status: stored.status as BatchStatus,
  metadata: JSON.parse(stored.metadata) as Record<string, string>,
  errors: JSON.parse(stored.errors) as BatchRecord['errors'],
});

export class BatchesRepository {
  constructor(private readonly db: Database) {}

  async insert(record: BatchRecord): Promise<void> {
    await this.db.query
      .insertInto('batches')
      .values({ ...record, metadata: JSON.stringify(record.metadata), errors: JSON.stringify(record.errors) })
      .execute();
  }

  /** The batch, when it exists and is inside `scope` (no scope: any batch). */
  async get(id: string, scope?: OwnerScope): Promise<BatchRecord | undefined> {
    const stored = await this.db.query.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  /** Newest first, paged by `after` (an id), only batches inside `scope`. */
  async list(limit: number, after?: string, scope?: OwnerScope): Promise<BatchRecord[]> {
    const from = after ? await this.get(after) : undefined;
    return (await newestFirst(this.db, 'batches', limit, from, [ownerCondition(scope)])).map(fromStored);
  }

  async withStatus(statuses: BatchStatus[]): Promise<BatchRecord[]> {
    if (statuses.length === 0) return [];
    return (await this.db.query.selectFrom('batches').selectAll().where('status', 'in', statuses).orderBy('created_at').execute()).map(fromStored);
  }

  async update(id: string, changes: Partial<Omit<BatchRecord, 'id' | 'metadata'>>): Promise<void> {
    const { errors, ...rest } = changes;
    const stored = errors ? { ...rest, errors: JSON.stringify(errors) } : rest;
    if (Object.keys(stored).length === 0) return;
    await this.db.query.updateTable('batches').set(stored).where('id', '=', id).execute();
  }
}
