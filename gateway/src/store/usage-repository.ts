import { row, rows, type Database } from './database.js';

export interface UsageRecord {
  time: number;
  request_id: string;
  key_id: string | null;
  method: string;
  route: string;
  model: string | null;
  status: number;
  latency_ms: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export interface UsageTotals {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export interface UsageGroup extends UsageTotals {
  key: string;
}

const TOTALS = `COUNT(*) AS requests, COALESCE(SUM(prompt_tokens), 0) AS prompt_tokens,
  COALESCE(SUM(completion_tokens), 0) AS completion_tokens, COALESCE(SUM(cost), 0) AS cost`;

export class UsageRepository {
  private readonly insertStatement;

  constructor(private readonly db: Database) {
    this.insertStatement = db.prepare(
      `INSERT INTO usage (time, request_id, key_id, method, route, model, status, latency_ms, prompt_tokens, completion_tokens, cost)
       VALUES (@time, @request_id, @key_id, @method, @route, @model, @status, @latency_ms, @prompt_tokens, @completion_tokens, @cost)`,
    );
  }

  /** Runs `work` in one transaction (libsql's transactions do not nest). */
  transaction(work: () => void): void {
    this.db.transaction(work)();
  }

  insert(record: UsageRecord): void {
    this.insertStatement.run(record);
  }

  totals(keyId?: string): UsageTotals {
    const sql = `SELECT ${TOTALS} FROM usage${keyId ? ' WHERE key_id = ?' : ''}`;
    const statement = this.db.prepare(sql);
    return row<UsageTotals>(keyId ? statement.get(keyId) : statement.get()) as UsageTotals;
  }

  byModel(keyId?: string): UsageGroup[] {
    const where = keyId ? 'WHERE model IS NOT NULL AND key_id = ?' : 'WHERE model IS NOT NULL';
    const statement = this.db.prepare(`SELECT model AS key, ${TOTALS} FROM usage ${where} GROUP BY model ORDER BY requests DESC`);
    return rows<UsageGroup>(keyId ? statement.all(keyId) : statement.all());
  }

  byDay(keyId?: string, days = 30): UsageGroup[] {
    const since = Date.now() - days * 86_400_000;
    const where = keyId ? 'WHERE time >= ? AND key_id = ?' : 'WHERE time >= ?';
    const statement = this.db.prepare(
      `SELECT strftime('%Y-%m-%d', time / 1000, 'unixepoch') AS key, ${TOTALS} FROM usage ${where} GROUP BY key ORDER BY key`,
    );
    return rows<UsageGroup>(keyId ? statement.all(since, keyId) : statement.all(since));
  }

  spentByKey(keyId: string): number {
    return row<{ cost: number }>(this.db.prepare('SELECT COALESCE(SUM(cost), 0) AS cost FROM usage WHERE key_id = ?').get(keyId))?.cost ?? 0;
  }

  spentTotal(): number {
    return row<{ cost: number }>(this.db.prepare('SELECT COALESCE(SUM(cost), 0) AS cost FROM usage').get())?.cost ?? 0;
  }
}
