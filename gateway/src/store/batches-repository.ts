import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';

/** OpenAI's batch statuses; `cancelling` lasts while the line in flight at the cancel is stopped and the results are written. */
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

export interface BatchRecord {
  id: string;
  status: BatchStatus;
  endpoint: string;
  input_file_id: string;
  output_file_id: string | null;
  error_file_id: string | null;
  completion_window: string;
  metadata: Record<string, string>;
  created_at: number;
  in_progress_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  failed_at: number | null;
  total: number;
  completed: number;
  failed: number;
  key_id: string | null;
  /** Problems found while validating the input file. */
  errors: { line: number; message: string }[];
}

type StoredBatch = Omit<BatchRecord, 'metadata' | 'errors'> & { metadata: string; errors: string };

const fromStored = (stored: StoredBatch): BatchRecord => ({
  ...stored,
  metadata: JSON.parse(stored.metadata) as Record<string, string>,
  errors: JSON.parse(stored.errors) as BatchRecord['errors'],
});

export class BatchesRepository {
  constructor(private readonly db: Database) {}

  insert(record: BatchRecord): void {
    this.db
      .prepare(
        `INSERT INTO batches (id, status, endpoint, input_file_id, output_file_id, error_file_id, completion_window, metadata, created_at,
           in_progress_at, completed_at, cancelled_at, failed_at, total, completed, failed, key_id, errors)
         VALUES (@id, @status, @endpoint, @input_file_id, @output_file_id, @error_file_id, @completion_window, @metadata, @created_at,
           @in_progress_at, @completed_at, @cancelled_at, @failed_at, @total, @completed, @failed, @key_id, @errors)`,
      )
      .run({ ...record, metadata: JSON.stringify(record.metadata), errors: JSON.stringify(record.errors) });
  }

  /** The batch, when it exists and is inside `scope` (no scope: any batch). */
  get(id: string, scope?: OwnerScope): BatchRecord | undefined {
    const stored = row<StoredBatch>(this.db.prepare('SELECT * FROM batches WHERE id = ?').get(id));
    return stored && inScope(stored.key_id, scope) ? fromStored(stored) : undefined;
  }

  /** Newest first, paged by `after` (an id), only batches inside `scope`. */
  list(limit: number, after?: string, scope?: OwnerScope): BatchRecord[] {
    return rows<StoredBatch>(newestFirst(this.db, 'batches', limit, after ? this.get(after) : undefined, [ownerCondition(scope)])).map(fromStored);
  }

  withStatus(statuses: BatchStatus[]): BatchRecord[] {
    const placeholders = statuses.map(() => '?').join(', ');
    return rows<StoredBatch>(this.db.prepare(`SELECT * FROM batches WHERE status IN (${placeholders}) ORDER BY created_at`).all(...statuses)).map(fromStored);
  }

  update(id: string, changes: Partial<Omit<BatchRecord, 'id' | 'metadata'>>): void {
    const stored: Record<string, unknown> = { ...changes };
    if (changes.errors) stored.errors = JSON.stringify(changes.errors);
    const fields = Object.keys(stored);
    if (fields.length === 0) return;
    this.db.prepare(`UPDATE batches SET ${fields.map((field) => `${field} = @${field}`).join(', ')} WHERE id = @id`).run({ ...stored, id });
  }
}
