import type {
  EvalItemRecord,
  EvalItemStatus,
  EvalPage,
  EvalRecord,
  EvalRunRecord,
  EvalRunSummary,
  EvalsRepository,
} from '../../store/evals-repository.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { EvalRow, EvalRunDataSource, EvalRunStatus } from '../../wire/eval-schemas.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { FileStore } from '../files/file-store.js';
import { newOrderedId } from '../ids/ids.js';
import type { ClientSchemaChecker } from '../json/client-schema-checker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import {
  checkChatModel,
  checkRunDataSource,
  checkTestingCriteria,
  dataSourceConfig,
  graderTemplates,
} from './check-eval-input.js';
import { evalRows } from './eval-rows.js';
import type { EvalRunner } from './eval-runner.js';
import { lookUp, templateReferences } from './fill-template.js';
import { promptMessages } from './sample-request.js';
import { summariseRun } from './summarise-run.js';

export type { EvalItemRecord, EvalRecord };

export interface EvalsServiceDeps {
  evals: EvalsRepository;
  runner: EvalRunner;
  files: FileStore;
  models: ModelRegistry;
  schemas: ClientSchemaChecker;
}

export interface NewEval {
  name?: string;
  metadata?: Record<string, string> | null;
  data_source_config: Record<string, unknown>;
  testing_criteria: unknown[];
}

export interface NewEvalRun {
  name?: string;
  metadata?: Record<string, string> | null;
  data_source: Record<string, unknown>;
}

/** A run as answered: its record with its summary (added up from the items stored so far while it runs). */
export type EvalRunView = EvalRunRecord & { summary: EvalRunSummary };

/** A page of records and whether more follow. */
export interface EvalListPage<T> {
  data: T[];
  hasMore: boolean;
}

const seconds = () => Math.floor(Date.now() / 1000);
const RUNNING: EvalRunStatus[] = ['queued', 'in_progress'];

const notFound = (what: 'eval' | 'eval run' | 'output item', id: string, param: string) =>
  new GatewayError(404, `${what.replaceAll(' ', '_')}_not_found`, `No ${what} with id "${id}".`, { param });

/** One more than the page holds, to tell whether more follow. */
async function paged<T>(page: EvalPage, fetch: (page: EvalPage) => Promise<T[]>): Promise<EvalListPage<T>> {
  const fetched = await fetch({ ...page, limit: page.limit + 1 });
  return { data: fetched.slice(0, page.limit), hasMore: fetched.length > page.limit };
}

/**
 * OpenAI's Evals API: evals (a data source config and testing criteria), their runs (rows sampled
 * and graded on the batch queue by the `EvalRunner`) and the runs' output items. Everything
 * belongs to the key that made it (an Owner sees all; another key gets 404), and a run is checked
 * whole (rows against the item schema, templates against each row, models served) before anything
 * is queued or billed.
 */
export class EvalsService {
  constructor(private readonly deps: EvalsServiceDeps) {}

  async create(input: NewEval, owner: OwnerScope, signal: AbortSignal): Promise<EvalRecord> {
    const config = dataSourceConfig(input.data_source_config);
    await this.deps.schemas.compile(
      input.data_source_config.item_schema as Record<string, unknown>,
      'data_source_config.item_schema',
      signal,
    );
    const record: EvalRecord = {
      id: newOrderedId('eval_'),
      name: input.name ?? '',
      metadata: input.metadata ?? null,
      data_source_config: config,
      testing_criteria: checkTestingCriteria(input.testing_criteria, this.deps.models),
      created_at: seconds(),
      key_id: owner.keyId,
    };
    await this.deps.evals.insertEval(record);
    return record;
  }

  async get(id: string, scope: OwnerScope): Promise<EvalRecord> {
    const record = await this.deps.evals.getEval(id, scope);
    if (!record) throw notFound('eval', id, 'eval_id');
    return record;
  }

  list(page: EvalPage, scope: OwnerScope): Promise<EvalListPage<EvalRecord>> {
    return paged(page, (fetch) => this.deps.evals.listEvals(fetch, scope));
  }

  async update(
    id: string,
    changes: { name?: string; metadata?: Record<string, string> | null },
    scope: OwnerScope,
  ): Promise<EvalRecord> {
    await this.get(id, scope);
    await this.deps.evals.updateEval(id, changes);
    return this.get(id, scope);
  }

  /** Deletes the eval, its runs (running ones are cancelled first) and their items. */
  async delete(id: string, scope: OwnerScope): Promise<void> {
    await this.get(id, scope);
    for (const runId of await this.deps.evals.runIdsOf(id, RUNNING)) await this.deps.runner.cancel(runId);
    await this.deps.evals.deleteEval(id);
  }

  /** Checks the run whole, stores it `queued` and queues it; nothing runs (or is billed) when a check fails. */
  async createRun(evalId: string, input: NewEvalRun, owner: OwnerScope, signal: AbortSignal): Promise<EvalRunView> {
    const evaluation = await this.get(evalId, owner);
    const dataSource = checkRunDataSource(input.data_source, this.deps.models);
    evaluation.testing_criteria.forEach((grader, index) => {
      if (grader.type === 'label_model' || grader.type === 'score_model')
        checkChatModel(this.deps.models, grader.model, `testing_criteria[${index}].model`);
    });
    const rows = await evalRows(dataSource.source, this.deps.files, owner);
    await this.checkRows(evaluation, dataSource, rows, signal);
    const record: EvalRunRecord = {
      id: newOrderedId('evalrun_'),
      eval_id: evalId,
      name: input.name ?? (dataSource.type === 'completions' ? dataSource.model : 'jsonl'),
      model: dataSource.type === 'completions' ? dataSource.model : null,
      status: 'queued',
      data_source: dataSource,
      metadata: input.metadata ?? null,
      error: null,
      created_at: seconds(),
      key_id: owner.keyId,
      total: rows.length,
      passed: 0,
      failed: 0,
      errored: 0,
      summary: null,
    };
    await this.deps.evals.insertRun(record);
    await this.deps.runner.enqueue(record.id);
    return { ...record, summary: summariseRun(evaluation.testing_criteria, []) };
  }

  async getRun(evalId: string, runId: string, scope: OwnerScope): Promise<EvalRunView> {
    return this.view(await this.runIn(evalId, runId, scope));
  }

  async listRuns(
    evalId: string,
    page: EvalPage,
    status: EvalRunStatus | undefined,
    scope: OwnerScope,
  ): Promise<EvalListPage<EvalRunView>> {
    await this.get(evalId, scope);
    const runs = await paged(page, (fetch) => this.deps.evals.listRuns(evalId, fetch, status));
    return { data: await Promise.all(runs.data.map((run) => this.view(run))), hasMore: runs.hasMore };
  }

  /** Cancels a queued or running run (its rows in flight are dropped); 409 once it ended. */
  async cancelRun(evalId: string, runId: string, scope: OwnerScope): Promise<EvalRunView> {
    const run = await this.runIn(evalId, runId, scope);
    if (!(await this.deps.runner.cancel(run.id))) {
      const now = await this.runIn(evalId, runId, scope);
      throw new GatewayError(
        409,
        'eval_run_not_cancellable',
        `Eval run ${runId} is ${now.status}; only queued or in_progress runs can be cancelled.`,
        { param: 'run_id' },
      );
    }
    return this.getRun(evalId, runId, scope);
  }

  /** Deletes a run and its items (a running one is cancelled first). */
  async deleteRun(evalId: string, runId: string, scope: OwnerScope): Promise<void> {
    const run = await this.runIn(evalId, runId, scope);
    if (RUNNING.includes(run.status)) await this.deps.runner.cancel(run.id);
    await this.deps.evals.deleteRun(run.id);
  }

  async listItems(
    evalId: string,
    runId: string,
    page: EvalPage,
    status: EvalItemStatus | undefined,
    scope: OwnerScope,
  ): Promise<EvalListPage<EvalItemRecord>> {
    await this.runIn(evalId, runId, scope);
    return paged(page, (fetch) => this.deps.evals.listItems(runId, fetch, status));
  }

  async getItem(evalId: string, runId: string, itemId: string, scope: OwnerScope): Promise<EvalItemRecord> {
    await this.runIn(evalId, runId, scope);
    const item = await this.deps.evals.getItem(runId, itemId);
    if (!item) throw notFound('output item', itemId, 'output_item_id');
    return item;
  }

  private async runIn(evalId: string, runId: string, scope: OwnerScope): Promise<EvalRunRecord> {
    await this.get(evalId, scope);
    const run = await this.deps.evals.getRun(runId, scope, evalId);
    if (!run) throw notFound('eval run', runId, 'run_id');
    return run;
  }

  private async view(run: EvalRunRecord): Promise<EvalRunView> {
    if (run.summary) return { ...run, summary: run.summary };
    const evaluation = await this.deps.evals.getEval(run.eval_id);
    const summary = summariseRun(evaluation?.testing_criteria ?? [], await this.deps.evals.itemTallies(run.id));
    return { ...run, summary };
  }

  /**
   * Every row against the eval's item schema, and every template against every row: the run's
   * prompt (completions) and the graders' `{{item.…}}` (and, on a jsonl run, `{{sample.…}}`)
   * references. The first problem is a 422 naming the row.
   */
  private async checkRows(
    evaluation: EvalRecord,
    dataSource: EvalRunDataSource,
    rows: EvalRow[],
    signal: AbortSignal,
  ): Promise<void> {
    const inline = dataSource.source.type === 'file_content';
    const rowParam = (index: number) =>
      inline ? `data_source.source.content[${index}].item` : 'data_source.source.id';
    const rowName = (index: number) => (inline ? `Row ${index}` : `Line ${index + 1} of the file`);
    if (rows.length === 0) throw new GatewayError(422, 'invalid_value', 'The run has no rows.', { param: rowParam(0) });
    const itemSchema = (evaluation.data_source_config.schema.properties as { item: Record<string, unknown> }).item;
    const validate = await this.deps.schemas.compile(itemSchema, 'data_source_config.item_schema', signal);
    const graderReferences = evaluation.testing_criteria.flatMap((grader, index) =>
      graderTemplates(grader, `testing_criteria[${index}]`).flatMap(([text]) =>
        templateReferences(text).map((reference) => ({ reference, grader: grader.name })),
      ),
    );
    for (const [index, row] of rows.entries()) {
      const problem = await validate(row.item);
      if (problem)
        throw new GatewayError(
          422,
          'item_schema_mismatch',
          `${rowName(index)} does not match the eval's item_schema: ${problem}`,
          {
            param: rowParam(index),
          },
        );
      if (dataSource.type === 'completions') {
        try {
          promptMessages(dataSource, row);
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          throw new GatewayError(422, error.code, `${rowName(index)}: ${error.message}`, { param: error.param });
        }
      }
      for (const { reference, grader } of graderReferences) {
        const sampleReference = reference.startsWith('sample');
        if (sampleReference && dataSource.type === 'completions') continue;
        if (lookUp(reference, { item: row.item, sample: row.sample ?? {} }) === 'missing')
          throw new GatewayError(
            422,
            'template_field_missing',
            `The testing criterion "${grader}" names {{${reference}}}, which ${rowName(index).toLowerCase()} does not have.`,
            { param: sampleReference && inline ? `data_source.source.content[${index}].sample` : rowParam(index) },
          );
      }
    }
  }
}
