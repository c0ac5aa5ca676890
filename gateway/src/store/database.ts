import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Libsql from 'libsql';
import { MIGRATIONS } from './migrations.js';

export type Database = Libsql.Database;

/** Opens (creating when needed) the gateway's one SQLite file in WAL mode and applies pending migrations. */
export function openDatabase(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Libsql(join(dataDir, 'switchyard.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  applyMigrations(db);
  return db;
}

export function applyMigrations(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set(rows<{ version: number }>(db.prepare('SELECT version FROM schema_migrations').all()).map((row) => row.version));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, Date.now());
    })();
  }
}

/** libsql adds a `_metadata` key to every row; strip it so rows are plain records. */
export function row<T>(value: unknown): T | undefined {
  if (value === undefined || value === null) return undefined;
  const { _metadata: _ignored, ...rest } = value as Record<string, unknown>;
  return rest as T;
}

export function rows<T>(values: unknown[]): T[] {
  return values.map((value) => row<T>(value) as T);
}
