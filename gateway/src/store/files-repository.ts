import { row, rows, type Database } from './database.js';

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
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    if (options.purpose) {
      conditions.push('purpose = ?');
      params.push(options.purpose);
    }
    if (options.after) {
      const cursor = this.get(options.after);
      if (cursor) {
        conditions.push('(created_at < ? OR (created_at = ? AND id < ?))');
        params.push(cursor.created_at, cursor.created_at, cursor.id);
      }
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    return rows<FileRecord>(this.db.prepare(`SELECT * FROM files ${where} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...params, options.limit));
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM files WHERE id = ?').run(id);
  }
}
