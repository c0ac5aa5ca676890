import { row, rows, type Database } from './database.js';

export interface ModelStateRecord {
  id: string;
  metadata: Record<string, string>;
  archived: boolean;
  deleted: boolean;
  updated_at: number;
}

interface StoredModelState {
  id: string;
  metadata: string;
  archived: number;
  deleted: number;
  updated_at: number;
}

const fromStored = (stored: StoredModelState): ModelStateRecord => ({
  id: stored.id,
  metadata: JSON.parse(stored.metadata) as Record<string, string>,
  archived: stored.archived === 1,
  deleted: stored.deleted === 1,
  updated_at: stored.updated_at,
});

/** What users changed about models: fine-tuned models' metadata, archive and delete flags. */
export class ModelStateRepository {
  constructor(private readonly db: Database) {}

  all(): ModelStateRecord[] {
    return rows<StoredModelState>(this.db.prepare('SELECT * FROM model_state').all()).map(fromStored);
  }

  get(id: string): ModelStateRecord | undefined {
    const stored = row<StoredModelState>(this.db.prepare('SELECT * FROM model_state WHERE id = ?').get(id));
    return stored ? fromStored(stored) : undefined;
  }

  save(record: ModelStateRecord): void {
    this.db
      .prepare(
        `INSERT INTO model_state (id, metadata, archived, deleted, updated_at) VALUES (@id, @metadata, @archived, @deleted, @updated_at)
         ON CONFLICT(id) DO UPDATE SET metadata = excluded.metadata, archived = excluded.archived, deleted = excluded.deleted, updated_at = excluded.updated_at`,
      )
      .run({ ...record, metadata: JSON.stringify(record.metadata), archived: record.archived ? 1 : 0, deleted: record.deleted ? 1 : 0 });
  }
}
