import { sql } from 'kysely';
import type { Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';

/** OpenAI's batch statuses; `cancelling` lasts while the line in flight at the cancel is stopped and the results are written. */
export type BatchStatus =
  'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** A batch as the gateway uses it: the stored row with its status typed and its JSON columns parsed. */
export type BatchRecord = Omit<Row<'batches'>, 'status' | 'metadata' | 'errors'> & {
  status: BatchStatus;
  metadata: Record<string, string>;
  /** Problems found while validating the input file. */
  errors: { line: number; message: string }[];
};

type StoredBatch = Row<'batches'>;

/** One finished line of a batch: `ok` lines go to the output file, the others to the error file; `result` is the line as written there. */
export interface BatchLineResult {
  customId: string;
  /** The line's place in the input file (the output keeps the input's order). */
  line: number;
  ok: boolean;
  result: string;
}

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

  /** Newest first, paged by `after` (an id) or past the first `offset`, only batches inside `scope`. */
  async list(limit: number, after?: string, scope?: OwnerScope, offset = 0): Promise<BatchRecord[]> {
    const from = after ? await this.get(after) : undefined;
    return (await newestFirst(this.db, 'batches', limit, from, [ownerCondition(scope)], offset)).map(fromStored);
  }

  /** How many batches `scope` sees. */
  async countIn(scope?: OwnerScope): Promise<number> {
    const condition = ownerCondition(scope);
    let query = this.db.query.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('count'));
    if (condition) query = query.where(condition);
    return Number((await query.executeTakeFirst())?.count ?? 0);
  }

  async withStatus(statuses: BatchStatus[]): Promise<BatchRecord[]> {
    if (statuses.length === 0) return [];
    return (
      await this.db.query
        .selectFrom('batches')
        .selectAll()
        .where('status', 'in', statuses)
        .orderBy('created_at')
        .execute()
    ).map(fromStored);
  }

  async update(id: string, changes: Partial<Omit<BatchRecord, 'id' | 'metadata'>>): Promise<void> {
    const { errors, ...rest } = changes;
    const stored = errors ? { ...rest, errors: JSON.stringify(errors) } : rest;
    if (Object.keys(stored).length === 0) return;
    await this.db.query.updateTable('batches').set(stored).where('id', '=', id).execute();
  }

  /** Moves the batch from one of `from` to `to` (with `changes`); false when it was in none of them (another instance or call got there first). */
  async transition(
    id: string,
    from: BatchStatus[],
    to: BatchStatus,
    changes: Partial<Omit<BatchRecord, 'id' | 'metadata' | 'errors' | 'status'>> = {},
  ): Promise<boolean> {
    const result = await this.db.query
      .updateTable('batches')
      .set({ ...changes, status: to })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Stores a finished line while the batch is in progress: `stored`, `duplicate` when the line
   * was stored before (a line run twice is stored once), `not_running` when the batch was cancelled,
   * expired or ended meanwhile. On PostgreSQL the batch row is share-locked by the insert, so a
   * status change waits for lines being stored and no line lands after it.
   */
  async storeLine(batchId: string, line: BatchLineResult): Promise<'stored' | 'duplicate' | 'not_running'> {
    const lock = this.db.dialect === 'postgres' ? sql` FOR SHARE` : sql``;
    const inserted = await sql`
      INSERT INTO batch_lines (batch_id, custom_id, line, ok, result)
      SELECT ${batchId}, ${line.customId}, ${line.line}, ${line.ok ? 1 : 0}, ${line.result}
      WHERE EXISTS (SELECT 1 FROM batches WHERE id = ${batchId} AND status = 'in_progress'${lock})
      ON CONFLICT (batch_id, custom_id) DO NOTHING`.execute(this.db.query);
    if (Number(inserted.numAffectedRows ?? 0) > 0) {
      const counter = line.ok ? 'completed' : 'failed';
      await this.db.query
        .updateTable('batches')
        .set((eb) => ({ [counter]: eb(counter, '+', 1) }))
        .where('id', '=', batchId)
        .execute();
      return 'stored';
    }
    const batch = await this.get(batchId);
    return batch?.status === 'in_progress' ? 'duplicate' : 'not_running';
  }

  /** The custom ids of the lines stored so far. */
  async storedLineIds(batchId: string): Promise<Set<string>> {
    const rows = await this.db.query
      .selectFrom('batch_lines')
      .select('custom_id')
      .where('batch_id', '=', batchId)
      .execute();
    return new Set(rows.map((row) => row.custom_id));
  }

  /** How many batches of `keyId` have one of `statuses`. */
  async countBy(keyId: string, statuses: BatchStatus[]): Promise<number> {
    const row = await this.db.query
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('key_id', '=', keyId)
      .where('status', 'in', statuses)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async lineCount(batchId: string): Promise<number> {
    const row = await this.db.query
      .selectFrom('batch_lines')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** The stored lines in input order. */
  async lines(batchId: string): Promise<BatchLineResult[]> {
    const rows = await this.db.query
      .selectFrom('batch_lines')
      .selectAll()
      .where('batch_id', '=', batchId)
      .orderBy('line')
      .execute();
    return rows.map((row) => ({ customId: row.custom_id, line: row.line, ok: row.ok === 1, result: row.result }));
  }

  async deleteLines(batchId: string): Promise<void> {
    await this.db.query.deleteFrom('batch_lines').where('batch_id', '=', batchId).execute();
  }
}
