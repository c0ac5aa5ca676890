/**
 * The account pages' aggregates as the store computed them before the daily roll-up (migration 13):
 * straight over the ledger's rows. The benchmark's baseline, kept here only to measure against.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../gateway/src/store/database.js';
import type { Tables } from '../../gateway/src/store/tables.js';

const totals = (eb: ExpressionBuilder<Tables, 'usage'>) => [
  eb.fn.countAll<number>().as('requests'),
  eb.fn.coalesce(eb.fn.sum<number>('prompt_tokens'), sql<number>`0`).as('prompt_tokens'),
  eb.fn.coalesce(eb.fn.sum<number>('completion_tokens'), sql<number>`0`).as('completion_tokens'),
  eb.fn.coalesce(eb.fn.sum<number>('cost'), sql<number>`0`).as('cost'),
];

const utcDay = (db: Database) =>
  db.dialect === 'postgres'
    ? sql<string>`to_char(to_timestamp(${sql.ref('time')} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    : sql<string>`strftime('%Y-%m-%d', ${sql.ref('time')} / 1000, 'unixepoch')`;

export class LedgerScan {
  constructor(private readonly db: Database) {}

  totals(keyId?: string) {
    let query = this.db.query.selectFrom('usage').select(totals);
    if (keyId) query = query.where('key_id', '=', keyId);
    return query.executeTakeFirstOrThrow();
  }

  byModel(keyId?: string) {
    let query = this.db.query
      .selectFrom('usage')
      .select((eb) => [eb.ref('model').as('key'), ...totals(eb)])
      .where('model', 'is not', null);
    if (keyId) query = query.where('key_id', '=', keyId);
    return query.groupBy('model').orderBy('requests', 'desc').execute();
  }

  byDay(keyId?: string, days = 30) {
    const day = utcDay(this.db);
    let query = this.db.query
      .selectFrom('usage')
      .select((eb) => [day.as('key'), ...totals(eb)])
      .where('time', '>=', Date.now() - days * 86_400_000);
    if (keyId) query = query.where('key_id', '=', keyId);
    return query.groupBy(day).orderBy(day).execute();
  }

  spentPerKey() {
    return this.db.query
      .selectFrom('usage')
      .select((eb) => ['key_id', eb.fn.sum<number>('cost').as('cost')])
      .where('key_id', 'is not', null)
      .groupBy('key_id')
      .execute();
  }

  spentByKey(keyId: string) {
    return this.db.query
      .selectFrom('usage')
      .select((eb) => eb.fn.sum<number>('cost').as('cost'))
      .where('key_id', '=', keyId)
      .executeTakeFirst();
  }

  spentTotal() {
    return this.db.query
      .selectFrom('usage')
      .select((eb) => eb.fn.sum<number>('cost').as('cost'))
      .executeTakeFirst();
  }
}
