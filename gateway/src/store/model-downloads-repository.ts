import type { Database } from './database.js';
import type { Row } from './tables.js';

/** `target` is where the finished file goes, relative to the models folder. */
export type ModelDownloadRecord = Row<'model_downloads'>;

/** The download manager's state, so downloads resume after a restart. */
export class ModelDownloadsRepository {
  constructor(private readonly db: Database) {}

  async all(): Promise<ModelDownloadRecord[]> {
    return this.db.query
      .selectFrom('model_downloads')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async get(id: string): Promise<ModelDownloadRecord | undefined> {
    return this.db.query.selectFrom('model_downloads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async save(record: ModelDownloadRecord): Promise<void> {
    const { commit_sha, sha256, download_url, status, bytes_total, bytes_done, error, updated_at } = record;
    await this.db.query
      .insertInto('model_downloads')
      .values({ ...record })
      .onConflict((conflict) =>
        conflict
          .column('id')
          .doUpdateSet({ commit_sha, sha256, download_url, status, bytes_total, bytes_done, error, updated_at }),
      )
      .execute();
  }
}
