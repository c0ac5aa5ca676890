import type { Database } from './database.js';
import type { Row } from './tables.js';

export type ModelStateRecord = Omit<Row<'model_state'>, 'metadata' | 'archived' | 'deleted'> & {
  metadata: Record<string, string>;
  archived: boolean;
  deleted: boolean;
};

const fromStored = (stored: Row<'model_state'>): ModelStateRecord => ({
  id: stored.id,
  metadata: JSON.parse(stored.metadata) as Record<string, string>,
  archived: Number(stored.archived) === 1,
  deleted: Number(stored.deleted) === 1,
  updated_at: stored.updated_at,
});

/** What users changed about models: fine-tuned models' metadata, archive and delete flags. */
export class ModelStateRepository {
  constructor(private readonly db: Database) {}

  async all(): Promise<ModelStateRecord[]> {
    return (await this.db.query.selectFrom('model_state').selectAll().execute()).map(fromStored);
  }

  async get(id: string): Promise<ModelStateRecord | undefined> {
    const stored = await this.db.query.selectFrom('model_state').selectAll().where('id', '=', id).executeTakeFirst();
    return stored ? fromStored(stored) : undefined;
  }

  async save(record: ModelStateRecord): Promise<void> {
    const stored = {
      metadata: JSON.stringify(record.metadata),
      archived: record.archived ? 1 : 0,
      deleted: record.deleted ? 1 : 0,
      updated_at: record.updated_at,
    };
    await this.db.query
      .insertInto('model_state')
      .values({ id: record.id, ...stored })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(stored))
      .execute();
  }
}
