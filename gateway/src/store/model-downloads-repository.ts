import { row, rows, type Database } from './database.js';

export interface ModelDownloadRecord {
  id: string;
  repo: string;
  file: string;
  revision: string;
  commit_sha: string | null;
  sha256: string | null;
  download_url: string | null;
  /** Where the finished file goes, relative to the models folder. */
  target: string;
  status: string;
  bytes_total: number | null;
  bytes_done: number;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** The download manager's state, so downloads resume after a restart. */
export class ModelDownloadsRepository {
  constructor(private readonly db: Database) {}

  all(): ModelDownloadRecord[] {
    return rows<ModelDownloadRecord>(this.db.prepare('SELECT * FROM model_downloads ORDER BY created_at DESC, id DESC').all());
  }

  get(id: string): ModelDownloadRecord | undefined {
    return row<ModelDownloadRecord>(this.db.prepare('SELECT * FROM model_downloads WHERE id = ?').get(id));
  }

  save(record: ModelDownloadRecord): void {
    this.db
      .prepare(
        `INSERT INTO model_downloads (id, repo, file, revision, commit_sha, sha256, download_url, target, status, bytes_total, bytes_done, error, created_at, updated_at)
         VALUES (@id, @repo, @file, @revision, @commit_sha, @sha256, @download_url, @target, @status, @bytes_total, @bytes_done, @error, @created_at, @updated_at)
         ON CONFLICT(id) DO UPDATE SET commit_sha = excluded.commit_sha, sha256 = excluded.sha256, download_url = excluded.download_url, status = excluded.status,
           bytes_total = excluded.bytes_total, bytes_done = excluded.bytes_done, error = excluded.error, updated_at = excluded.updated_at`,
      )
      .run({ ...record });
  }
}
