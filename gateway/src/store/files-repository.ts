import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';

export interface FileRecord {
  id: string;
  purpose: string;
  filename: string;
  mime_type: string;
  bytes: number;
  created_at: number;
  key_id: string | null;
}

export class FilesRepository {
  constructor(private readonly db: Database) {}

  insert(record: FileRecord): void {
    this.db
      .prepare('INSERT INTO files (id, purpose, filename, mime_type, bytes, created_at, key_id) VALUES (@id, @purpose, @filename, @mime_type, @bytes, @created_at, @key_id)')
      .run(record);
  }

  get(id: string): FileRecord | undefined {
    return row<FileRecord>(this.db.prepare('SELECT * FROM files WHERE id = ?').get(id));
  }

  /** Newest first, paged by `after` (an id) and `limit`. */
  list(options: { purpose?: string; limit: number; after?: string }): FileRecord[] {
    const where = options.purpose ? { sql: 'purpose = ?', params: [options.purpose] } : undefined;
    return rows<FileRecord>(newestFirst(this.db, 'files', options.limit, options.after ? this.get(options.after) : undefined, where));
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM files WHERE id = ?').run(id);
  }
}
