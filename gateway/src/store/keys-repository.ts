import { row, rows, type Database } from './database.js';

export type KeyRole = 'owner' | 'member';

export interface ApiKeyRecord {
  id: string;
  name: string;
  role: KeyRole;
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  spend_limit: number | null;
  rpm_limit: number | null;
}

export type ApiKeyChanges = Partial<Pick<ApiKeyRecord, 'name' | 'spend_limit' | 'rpm_limit'>>;

export class KeysRepository {
  constructor(private readonly db: Database) {}

  insert(record: ApiKeyRecord): void {
    this.db
      .prepare(
        `INSERT INTO api_keys (id, name, role, prefix, hash, created_at, last_used_at, revoked_at, spend_limit, rpm_limit)
         VALUES (@id, @name, @role, @prefix, @hash, @created_at, @last_used_at, @revoked_at, @spend_limit, @rpm_limit)`,
      )
      .run(record);
  }

  findByHash(hash: string): ApiKeyRecord | undefined {
    return row<ApiKeyRecord>(this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash));
  }

  findById(id: string): ApiKeyRecord | undefined {
    return row<ApiKeyRecord>(this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id));
  }

  list(): ApiKeyRecord[] {
    return rows<ApiKeyRecord>(this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all());
  }

  countOwners(): number {
    const found = row<{ n: number }>(this.db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE role = 'owner' AND revoked_at IS NULL").get());
    return found?.n ?? 0;
  }

  update(id: string, changes: ApiKeyChanges): void {
    const fields = Object.keys(changes) as (keyof ApiKeyChanges)[];
    if (fields.length === 0) return;
    const assignments = fields.map((field) => `${field} = @${field}`).join(', ');
    this.db.prepare(`UPDATE api_keys SET ${assignments} WHERE id = @id`).run({ ...changes, id });
  }

  revoke(id: string, at: number): void {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }

  touch(id: string, at: number): void {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }
}
