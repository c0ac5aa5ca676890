import { row, type Database } from './database.js';

export interface AccountRecord {
  full_name: string;
  currency: string;
  balance: number;
  spend_limit: number | null;
  created_at: number;
}

export class AccountRepository {
  constructor(private readonly db: Database) {}

  get(): AccountRecord | undefined {
    return row<AccountRecord>(this.db.prepare('SELECT full_name, currency, balance, spend_limit, created_at FROM account WHERE id = 1').get());
  }

  create(record: AccountRecord): void {
    this.db
      .prepare('INSERT OR IGNORE INTO account (id, full_name, currency, balance, spend_limit, created_at) VALUES (1, @full_name, @currency, @balance, @spend_limit, @created_at)')
      .run(record);
  }

  update(changes: Partial<Pick<AccountRecord, 'full_name' | 'balance' | 'spend_limit'>>): void {
    const fields = Object.keys(changes);
    if (fields.length === 0) return;
    this.db.prepare(`UPDATE account SET ${fields.map((field) => `${field} = @${field}`).join(', ')} WHERE id = 1`).run(changes);
  }

  debit(amount: number): void {
    this.db.prepare('UPDATE account SET balance = balance - ? WHERE id = 1').run(amount);
  }
}
