import type { Database } from './database.js';
import type { Row } from './tables.js';

export type ApiKeyRecord = Row<'api_keys'>;
export type KeyRole = ApiKeyRecord['role'];
export type ApiKeyChanges = Partial<Pick<ApiKeyRecord, 'name' | 'spend_limit' | 'rpm_limit' | 'guardrails'>>;

export class KeysRepository {
  constructor(private readonly db: Database) {}

  async insert(record: ApiKeyRecord): Promise<void> {
    await this.db.query.insertInto('api_keys').values(record).execute();
  }

  /** Inserts the key unless one with its hash exists (instances starting together with one admin key); true when inserted. */
  async insertIfAbsent(record: ApiKeyRecord): Promise<boolean> {
    const result = await this.db.query
      .insertInto('api_keys')
      .values(record)
      .onConflict((conflict) => conflict.column('hash').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    return this.db.query.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    return this.db.query.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.db.query.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async countOwners(): Promise<number> {
    const found = await this.db.query
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'owner')
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(found?.n ?? 0);
  }

  async update(id: string, changes: ApiKeyChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.query.updateTable('api_keys').set(changes).where('id', '=', id).execute();
  }

  async revoke(id: string, at: number): Promise<void> {
    await this.db.query
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.query.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
