import { CompiledQuery, sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Database } from './database.js';
import { MultiRowInsert, numberedFor } from './multi-row-insert.js';
import type { Tables } from './tables.js';

/** A ledger entry as written: the row without its generated id; `entry_id` is given by the ledger when absent. */
export type UsageRecord = Omit<Selectable<Tables['usage']>, 'id' | 'entry_id'> & { entry_id?: string | null };

export interface UsageTotals {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

export interface UsageGroup extends UsageTotals {
  key: string;
}

/** Rows per INSERT: well under SQLite's limit of bound parameters. */
const ROWS_PER_INSERT = 500;
const DAY_MS = 86_400_000;
/** The roll-up's stand-in for no key or no model. */
const NONE = '';

type Rollup = Tables['usage_daily'];

const totals = (eb: ExpressionBuilder<Tables, 'usage_daily'>) => [
  eb.fn.coalesce(eb.fn.sum<number>('requests'), sql<number>`0`).as('requests'),
  eb.fn.coalesce(eb.fn.sum<number>('prompt_tokens'), sql<number>`0`).as('prompt_tokens'),
  eb.fn.coalesce(eb.fn.sum<number>('completion_tokens'), sql<number>`0`).as('completion_tokens'),
  eb.fn.coalesce(eb.fn.sum<number>('cost'), sql<number>`0`).as('cost'),
];

/** pg returns sums as numbers through the pool's type parser; SQLite returns numbers: this only pins the shape. */
const asTotals = <T extends UsageTotals>(row: T): T => ({
  ...row,
  requests: Number(row.requests),
  prompt_tokens: Number(row.prompt_tokens),
  completion_tokens: Number(row.completion_tokens),
  cost: Number(row.cost),
});

/** The entries summed per UTC day, key and model: the rows the roll-up gains. */
function rollUp(entries: readonly UsageRecord[]): Rollup[] {
  const groups = new Map<string, Rollup>();
  for (const entry of entries) {
    const day = Math.floor(entry.time / DAY_MS);
    const key_id = entry.key_id ?? NONE;
    const model = entry.model ?? NONE;
    const id = JSON.stringify([day, key_id, model]);
    const group = groups.get(id) ?? {
      day,
      key_id,
      model,
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0,
    };
    group.requests += 1;
    group.prompt_tokens += entry.prompt_tokens;
    group.completion_tokens += entry.completion_tokens;
    group.cost += entry.cost;
    groups.set(id, group);
  }
  return [...groups.values()];
}

const USAGE_COLUMNS = [
  'time',
  'request_id',
  'key_id',
  'method',
  'route',
  'model',
  'status',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
  'cost',
  'entry_id',
] as const satisfies readonly (keyof UsageRecord)[];

const ROLLUP_COLUMNS = [
  'day',
  'key_id',
  'model',
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'cost',
] as const satisfies readonly (keyof Rollup)[];
const SUMMED = ['requests', 'prompt_tokens', 'completion_tokens', 'cost'] as const;

const DEBIT_SQL = 'UPDATE "account" SET "balance" = "balance" - ? WHERE "id" = 1';

/**
 * The usage ledger: append-only rows, one per request, and a daily roll-up per key and model written
 * in the same transaction, which every aggregate reads (so the account pages do not grow with the ledger).
 */
export class UsageRepository {
  /** The ledger's rows; a duplicate `entry_id` fails the transaction (unique index, migration 16): the ledger skips stored ids before writing. */
  private readonly usageInsert = new MultiRowInsert<UsageRecord>('usage', USAGE_COLUMNS);
  /** The roll-up's rows, added to the day's row for the key and model when it exists. */
  private readonly rollupInsert = new MultiRowInsert<Rollup>(
    'usage_daily',
    ROLLUP_COLUMNS,
    ` ON CONFLICT ("day", "key_id", "model") DO UPDATE SET ${SUMMED.map((column) => `"${column}" = "usage_daily"."${column}" + "excluded"."${column}"`).join(', ')}`,
  );

  constructor(private readonly db: Database) {}

  /**
   * Appends the entries, adds them to the roll-up and debits the account by their cost, in one
   * transaction: all or nothing. `inBackground`: on SQLite, on the writer thread (for a caller that
   * does not wait on its answer's path, so the event loop neither runs nor waits for the commit).
   */
  async append(entries: readonly UsageRecord[], inBackground = false): Promise<void> {
    const debit = entries.reduce((sum, entry) => sum + entry.cost, 0);
    const statements: CompiledQuery[] = [];
    for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
      statements.push(this.usageInsert.compile(this.db.dialect, entries.slice(start, start + ROWS_PER_INSERT)));
    }
    const rollup = rollUp(entries);
    for (let start = 0; start < rollup.length; start += ROWS_PER_INSERT) {
      statements.push(this.rollupInsert.compile(this.db.dialect, rollup.slice(start, start + ROWS_PER_INSERT)));
    }
    if (debit > 0) statements.push(CompiledQuery.raw(numberedFor(this.db.dialect, DEBIT_SQL), [debit]));
    await (inBackground ? this.db.atomicallyInBackground(statements) : this.db.atomically(statements));
  }

  /** Which of these entry ids the ledger already holds (a replay or a retry skips them). */
  async storedEntryIds(entryIds: readonly string[]): Promise<Set<string>> {
    const stored = new Set<string>();
    for (let start = 0; start < entryIds.length; start += ROWS_PER_INSERT) {
      const rows = await this.db.query
        .selectFrom('usage')
        .select('entry_id')
        .where('entry_id', 'in', entryIds.slice(start, start + ROWS_PER_INSERT))
        .execute();
      for (const row of rows) if (row.entry_id) stored.add(row.entry_id);
    }
    return stored;
  }

  async totals(keyId?: string): Promise<UsageTotals> {
    let query = this.db.query.selectFrom('usage_daily').select(totals);
    if (keyId) query = query.where('key_id', '=', keyId);
    return asTotals((await query.executeTakeFirstOrThrow()) as UsageTotals);
  }

  async byModel(keyId?: string): Promise<UsageGroup[]> {
    let query = this.db.query
      .selectFrom('usage_daily')
      .select((eb) => [eb.ref('model').as('key'), ...totals(eb)])
      .where('model', '<>', NONE);
    if (keyId) query = query.where('key_id', '=', keyId);
    const groups = (await query
      .groupBy('model')
      .orderBy('requests', 'desc')
      .orderBy('model')
      .execute()) as UsageGroup[];
    return groups.map(asTotals);
  }

  /** Per UTC day, the last `days` days (today included). */
  async byDay(keyId?: string, days = 30): Promise<UsageGroup[]> {
    let query = this.db.query
      .selectFrom('usage_daily')
      .select((eb) => [eb.ref('day').as('day'), ...totals(eb)])
      .where('day', '>', Math.floor(Date.now() / DAY_MS) - days);
    if (keyId) query = query.where('key_id', '=', keyId);
    const groups = (await query.groupBy('day').orderBy('day').execute()) as (UsageTotals & { day: number })[];
    return groups.map(({ day, ...group }) =>
      asTotals({ key: new Date(Number(day) * DAY_MS).toISOString().slice(0, 10), ...group }),
    );
  }

  /** Money spent per key, for every key that spent any. */
  async spentPerKey(): Promise<Map<string, number>> {
    const rows = await this.db.query
      .selectFrom('usage_daily')
      .select((eb) => ['key_id', eb.fn.sum<number>('cost').as('cost')])
      .where('key_id', '<>', NONE)
      .groupBy('key_id')
      .execute();
    return new Map(rows.map((row) => [row.key_id, Number(row.cost)]));
  }

  async spentByKey(keyId: string): Promise<number> {
    const found = await this.db.query
      .selectFrom('usage_daily')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cost'), sql<number>`0`).as('cost'))
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return Number(found?.cost ?? 0);
  }

  async spentTotal(): Promise<number> {
    const found = await this.db.query
      .selectFrom('usage_daily')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cost'), sql<number>`0`).as('cost'))
      .executeTakeFirst();
    return Number(found?.cost ?? 0);
  }
}
