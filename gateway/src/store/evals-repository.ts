import { sql } from 'kysely';
import type {
  EvalApiError,
  EvalDataSourceConfig,
  EvalGrader,
  EvalGraderResult,
  EvalRunDataSource,
  EvalRunStatus,
  EvalSample,
} from '../wire/eval-schemas.js';
import type { Database } from './database.js';
import { inScope, ownerCondition, type OwnerScope } from './owner-scope.js';
import type { Row } from './tables.js';

/** An eval as the gateway uses it: the stored row with its JSON columns read. */
export type EvalRecord = Omit<Row<'evals'>, 'metadata' | 'data_source_config' | 'testing_criteria'> & {
  metadata: Record<string, string> | null;
  data_source_config: EvalDataSourceConfig;
  testing_criteria: EvalGrader[];
};

/** The requests of one model for one item (the sample's, or a judge's). */
export interface EvalModelCalls {
  model: string;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** What the requests were billed, and how long the gateway took to answer them (absent in items stored before). */
  cost?: number;
  latency_ms?: number;
}

/** What a run's answer adds up over its items, written once the run ended. */
export interface EvalRunSummary {
  per_model_usage: {
    model_name: string;
    invocation_count: number;
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cached_tokens: number;
    cost: number;
    total_latency_ms: number;
  }[];
  per_testing_criteria_results: { testing_criteria: string; passed: number; failed: number }[];
}

export type EvalRunRecord = Omit<Row<'eval_runs'>, 'status' | 'data_source' | 'metadata' | 'error' | 'summary'> & {
  status: EvalRunStatus;
  data_source: EvalRunDataSource;
  metadata: Record<string, string> | null;
  error: EvalApiError | null;
  summary: EvalRunSummary | null;
};

export type EvalItemStatus = 'pass' | 'fail' | 'error';

export type EvalItemRecord = Omit<
  Row<'eval_run_items'>,
  'status' | 'datasource_item' | 'sample' | 'results' | 'usage'
> & {
  status: EvalItemStatus;
  datasource_item: Record<string, unknown>;
  sample: EvalSample;
  results: EvalGraderResult[];
  usage: EvalModelCalls[];
};

/** One page's place: `limit` rows after the row `after` (an id), in `order`. */
export interface EvalPage {
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

const parse = <T>(text: string): T => JSON.parse(text) as T;

const evalFromRow = (row: Row<'evals'>): EvalRecord => ({
  ...row,
  metadata: parse(row.metadata),
  data_source_config: parse(row.data_source_config),
  testing_criteria: parse(row.testing_criteria),
});

const runFromRow = (row: Row<'eval_runs'>): EvalRunRecord => ({
  ...row,
  status: row.status as EvalRunStatus,
  data_source: parse(row.data_source),
  metadata: parse(row.metadata),
  error: row.error === null ? null : parse(row.error),
  summary: row.summary === null ? null : parse(row.summary),
});

const itemFromRow = (row: Row<'eval_run_items'>): EvalItemRecord => ({
  ...row,
  status: row.status as EvalItemStatus,
  datasource_item: parse(row.datasource_item),
  sample: parse(row.sample),
  results: parse(row.results),
  usage: parse(row.usage),
});

const COUNTER: Record<EvalItemStatus, 'passed' | 'failed' | 'errored'> = {
  pass: 'passed',
  fail: 'failed',
  error: 'errored',
};

/** Evals, their runs and the runs' output items (migration 18), on SQLite and PostgreSQL. */
export class EvalsRepository {
  constructor(private readonly db: Database) {}

  async insertEval(record: EvalRecord): Promise<void> {
    await this.db.query
      .insertInto('evals')
      .values({
        ...record,
        metadata: JSON.stringify(record.metadata),
        data_source_config: JSON.stringify(record.data_source_config),
        testing_criteria: JSON.stringify(record.testing_criteria),
      })
      .execute();
  }

  /** The eval, when it exists and is inside `scope` (no scope: any). */
  async getEval(id: string, scope?: OwnerScope): Promise<EvalRecord | undefined> {
    const row = await this.db.query.selectFrom('evals').selectAll().where('id', '=', id).executeTakeFirst();
    return row && inScope(row.key_id, scope) ? evalFromRow(row) : undefined;
  }

  /** A page of the evals `scope` sees, by creation time. */
  async listEvals(page: EvalPage, scope: OwnerScope): Promise<EvalRecord[]> {
    const from = page.after ? await this.getEval(page.after) : undefined;
    let query = this.db.query.selectFrom('evals').selectAll();
    const owner = ownerCondition(scope);
    if (owner) query = query.where(owner);
    if (from) query = query.where(sql<boolean>`${afterCondition(page.order, from)}`);
    const rows = await query.orderBy('created_at', page.order).orderBy('id', page.order).limit(page.limit).execute();
    return rows.map(evalFromRow);
  }

  async updateEval(id: string, changes: { name?: string; metadata?: Record<string, string> | null }): Promise<void> {
    const set = {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.metadata === undefined ? {} : { metadata: JSON.stringify(changes.metadata) }),
    };
    if (Object.keys(set).length > 0) await this.db.query.updateTable('evals').set(set).where('id', '=', id).execute();
  }

  /** Deletes the eval with its runs and their items. */
  async deleteEval(id: string): Promise<void> {
    const runs = this.db.query.selectFrom('eval_runs').select('id').where('eval_id', '=', id);
    await this.db.atomically([
      this.db.query.deleteFrom('eval_run_items').where('run_id', 'in', runs).compile(),
      this.db.query.deleteFrom('eval_runs').where('eval_id', '=', id).compile(),
      this.db.query.deleteFrom('evals').where('id', '=', id).compile(),
    ]);
  }

  async insertRun(record: EvalRunRecord): Promise<void> {
    await this.db.query
      .insertInto('eval_runs')
      .values({
        ...record,
        data_source: JSON.stringify(record.data_source),
        metadata: JSON.stringify(record.metadata),
        error: record.error === null ? null : JSON.stringify(record.error),
        summary: record.summary === null ? null : JSON.stringify(record.summary),
      })
      .execute();
  }

  /** The run, when it exists (of `evalId` when given) and is inside `scope` (no scope: any). */
  async getRun(id: string, scope?: OwnerScope, evalId?: string): Promise<EvalRunRecord | undefined> {
    const row = await this.db.query.selectFrom('eval_runs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !inScope(row.key_id, scope) || (evalId !== undefined && row.eval_id !== evalId)) return undefined;
    return runFromRow(row);
  }

  /** A page of an eval's runs, by creation time, optionally only those with `status`. */
  async listRuns(evalId: string, page: EvalPage, status?: EvalRunStatus): Promise<EvalRunRecord[]> {
    const from = page.after ? await this.getRun(page.after) : undefined;
    let query = this.db.query.selectFrom('eval_runs').selectAll().where('eval_id', '=', evalId);
    if (status) query = query.where('status', '=', status);
    if (from) query = query.where(sql<boolean>`${afterCondition(page.order, from)}`);
    const rows = await query.orderBy('created_at', page.order).orderBy('id', page.order).limit(page.limit).execute();
    return rows.map(runFromRow);
  }

  async runsWithStatus(statuses: EvalRunStatus[]): Promise<EvalRunRecord[]> {
    const rows = await this.db.query
      .selectFrom('eval_runs')
      .selectAll()
      .where('status', 'in', statuses)
      .orderBy('created_at')
      .execute();
    return rows.map(runFromRow);
  }

  /** The ids of an eval's runs with one of `statuses`. */
  async runIdsOf(evalId: string, statuses: EvalRunStatus[]): Promise<string[]> {
    const rows = await this.db.query
      .selectFrom('eval_runs')
      .select('id')
      .where('eval_id', '=', evalId)
      .where('status', 'in', statuses)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Moves the run from one of `from` to `to`; false when it was in none of them (another call or instance got there first). */
  async transitionRun(
    id: string,
    from: EvalRunStatus[],
    to: EvalRunStatus,
    changes: { total?: number; error?: EvalApiError; summary?: EvalRunSummary } = {},
  ): Promise<boolean> {
    const result = await this.db.query
      .updateTable('eval_runs')
      .set({
        status: to,
        ...(changes.total === undefined ? {} : { total: changes.total }),
        ...(changes.error === undefined ? {} : { error: JSON.stringify(changes.error) }),
        ...(changes.summary === undefined ? {} : { summary: JSON.stringify(changes.summary) }),
      })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setSummary(id: string, summary: EvalRunSummary): Promise<void> {
    await this.db.query
      .updateTable('eval_runs')
      .set({ summary: JSON.stringify(summary) })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes the run and its items. */
  async deleteRun(id: string): Promise<void> {
    await this.db.atomically([
      this.db.query.deleteFrom('eval_run_items').where('run_id', '=', id).compile(),
      this.db.query.deleteFrom('eval_runs').where('id', '=', id).compile(),
    ]);
  }

  /**
   * Stores a graded item while its run is in progress: `stored`, `duplicate` (stored before: a row
   * run twice counts once), or `not_running` (cancelled, failed or deleted meanwhile). On PostgreSQL
   * the run row is share-locked by the insert, so a status change waits for items being stored.
   */
  async storeItem(item: EvalItemRecord): Promise<'stored' | 'duplicate' | 'not_running'> {
    const lock = this.db.dialect === 'postgres' ? sql` FOR SHARE` : sql``;
    const inserted = await sql`
      INSERT INTO eval_run_items (run_id, item_index, id, created_at, status, datasource_item, sample, results, usage)
      SELECT ${item.run_id}, ${item.item_index}, ${item.id}, ${item.created_at}, ${item.status},
        ${JSON.stringify(item.datasource_item)}, ${JSON.stringify(item.sample)}, ${JSON.stringify(item.results)},
        ${JSON.stringify(item.usage)}
      WHERE EXISTS (SELECT 1 FROM eval_runs WHERE id = ${item.run_id} AND status = 'in_progress'${lock})
      ON CONFLICT (run_id, item_index) DO NOTHING`.execute(this.db.query);
    if (Number(inserted.numAffectedRows ?? 0) > 0) {
      const counter = COUNTER[item.status];
      await this.db.query
        .updateTable('eval_runs')
        .set((eb) => ({ [counter]: eb(counter, '+', 1) }))
        .where('id', '=', item.run_id)
        .execute();
      return 'stored';
    }
    const run = await this.getRun(item.run_id);
    return run?.status === 'in_progress' ? 'duplicate' : 'not_running';
  }

  /** The rows of a run stored so far (their index in the run's data). */
  async storedItemIndexes(runId: string): Promise<Set<number>> {
    const rows = await this.db.query
      .selectFrom('eval_run_items')
      .select('item_index')
      .where('run_id', '=', runId)
      .execute();
    return new Set(rows.map((row) => row.item_index));
  }

  async itemCount(runId: string): Promise<number> {
    const row = await this.db.query
      .selectFrom('eval_run_items')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('run_id', '=', runId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** A page of a run's items in data order, optionally only those with `status`. */
  async listItems(runId: string, page: EvalPage, status?: EvalItemStatus): Promise<EvalItemRecord[]> {
    const from = page.after ? await this.getItem(runId, page.after) : undefined;
    let query = this.db.query.selectFrom('eval_run_items').selectAll().where('run_id', '=', runId);
    if (status) query = query.where('status', '=', status);
    if (from) query = query.where('item_index', page.order === 'asc' ? '>' : '<', from.item_index);
    const rows = await query.orderBy('item_index', page.order).limit(page.limit).execute();
    return rows.map(itemFromRow);
  }

  async getItem(runId: string, id: string): Promise<EvalItemRecord | undefined> {
    const row = await this.db.query
      .selectFrom('eval_run_items')
      .selectAll()
      .where('run_id', '=', runId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && itemFromRow(row);
  }

  /** Every item's verdicts and usage (not its data or sample): what a run's summary adds up. */
  async itemTallies(runId: string): Promise<Pick<EvalItemRecord, 'results' | 'usage'>[]> {
    const rows = await this.db.query
      .selectFrom('eval_run_items')
      .select(['results', 'usage'])
      .where('run_id', '=', runId)
      .execute();
    return rows.map((row) => ({ results: parse(row.results), usage: parse(row.usage) }));
  }
}

/** Rows after `from` in `order`, by (created_at, id). */
function afterCondition(order: 'asc' | 'desc', from: { created_at: number; id: string }) {
  return order === 'asc'
    ? sql`(created_at > ${from.created_at} OR (created_at = ${from.created_at} AND id > ${from.id}))`
    : sql`(created_at < ${from.created_at} OR (created_at = ${from.created_at} AND id < ${from.id}))`;
}
