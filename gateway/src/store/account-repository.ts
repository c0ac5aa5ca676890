import type { Database } from './database.js';
import type { Row } from './tables.js';

export type AccountRecord = Omit<Row<'account'>, 'id'>;

export class AccountRepository {
  constructor(private readonly db: Database) {}

  async get(): Promise<AccountRecord | undefined> {
    return this.db.query
      .selectFrom('account')
      .select(['full_name', 'currency', 'balance', 'spend_limit', 'created_at'])
      .where('id', '=', 1)
      .executeTakeFirst();
  }

  /** Creates the one account row unless it exists. */
  async create(record: AccountRecord): Promise<void> {
    await this.db.query
      .insertInto('account')
      .values({ id: 1, ...record })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  async update(changes: Partial<Pick<AccountRecord, 'full_name' | 'balance' | 'spend_limit'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.query.updateTable('account').set(changes).where('id', '=', 1).execute();
  }
}
