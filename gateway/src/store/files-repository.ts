import { row, rows, type Database } from './database.js';
import { newestFirst } from './newest-first.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';

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

  /** The file, when it exists and is inside `scope` (no scope: any file). */
  get(id: string, scope?: OwnerScope): FileRecord | undefined {
    const found = row<FileRecord>(this.db.prepare('SELECT * FROM files WHERE id = ?').get(id));
    return found && inScope(found.key_id, scope) ? found : undefined;
  }

  /** Newest first, paged by `after` (an id) and `limit`, only files inside `scope`. */
  list(options: { purpose?: string; limit: number; after?: string; scope?: OwnerScope }): FileRecord[] {
    const purpose = options.purpose ? { sql: 'purpose = ?', params: [options.purpose] } : undefined;
    return rows<FileRecord>(newestFirst(this.db, 'files', options.limit, options.after ? this.get(options.after) : undefined, [purpose, ownerCondition(options.scope)]));
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM files WHERE id = ?').run(id);
  }
}
