import type { EvalItemRecord, EvalModelCalls, EvalRunRecord, EvalsRepository } from '../../store/evals-repository.js';
import type { EvalRow, EvalRunStatus, EvalSample } from '../../wire/eval-schemas.js';
import type { KeyService } from '../account/key-service.js';
import type { BatchExecutor } from '../batch/batch-executor.js';
import type { BatchLineQueue, BatchQueueHandlers, QueuedBatchLine } from '../batch/batch-line-queue.js';
import { executeWithRateLimitWaits } from '../batch/execute-with-rate-limit-waits.js';
import { BatchLineAbandoned, LinesInFlight } from '../batch/lines-in-flight.js';
import type { QueueWorker } from '../batch/queue-worker.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { FileStore } from '../files/file-store.js';
import { newId } from '../ids/ids.js';
import { evalRows } from './eval-rows.js';
import { summariseRun } from './summarise-run.js';
import { answerText, callUsage, gradeRow, type EvalCall } from './grade-row.js';
import { sampleRequest, type SampleRequest } from './sample-request.js';
import type { TemplateNamespaces } from './fill-template.js';

interface EvalRunnerLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const RUNNING: EvalRunStatus[] = ['queued', 'in_progress'];

/** A row with nothing asked of a model: its given sample (jsonl runs). */
function givenSample(row: EvalRow): EvalSample {
  const outputText = row.sample?.output_text;
  return {
    model: typeof row.sample?.model === 'string' ? row.sample.model : '',
    input: [],
    output: typeof outputText === 'string' ? [{ role: 'assistant', content: outputText }] : [],
    finish_reason: '',
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 },
    error: null,
    temperature: null,
    top_p: null,
    seed: null,
    max_completion_tokens: null,
  };
}

/** The `sample` namespace of a model's answer, as OpenAI's templates name it. */
function sampleNamespace(body: unknown): Record<string, unknown> {
  const text = answerText(body);
  let outputJson: unknown = null;
  try {
    outputJson = JSON.parse(text);
  } catch {
    // Not JSON: {{sample.output_json}} is null.
  }
  const choices = (body as { choices?: { message?: { tool_calls?: unknown[] } }[] }).choices ?? [];
  return { output_text: text, output_json: outputJson, output_tools: choices[0]?.message?.tool_calls ?? [], choices };
}

/**
 * Eval runs on the batch queue (kind `eval_run`): a run's start reads its rows and queues those not
 * stored yet (each row is a line); each row is sampled (completions runs: the chat route, as the
 * run's key) and graded, then stored once per (run, row); when every row is stored the run is
 * completed with its summary. Durable as batches are: a restart, or another instance on pg-boss,
 * runs the rows not stored, so at most the rows in flight run twice.
 */
export class EvalRunner implements QueueWorker {
  private readonly lines: LinesInFlight;

  readonly handlers: BatchQueueHandlers = {
    startBatch: (id) => this.startRun(id),
    finaliseBatch: (id) => this.finalise(id),
    runLine: (line, signal) => this.runRow(line, signal),
  };

  constructor(
    private readonly evals: EvalsRepository,
    private readonly files: FileStore,
    keys: KeyService,
    private readonly execute: BatchExecutor,
    private readonly queue: BatchLineQueue,
    private readonly logger: EvalRunnerLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.lines = new LinesInFlight(keys, logger, async () =>
      (await evals.runsWithStatus(['in_progress'])).map((run) => run.id),
    );
  }

  /** Queues the start of the runs that had not ended (their rows not stored yet run), and the summary of those cancelled meanwhile. */
  async resume(): Promise<void> {
    this.lines.watchStatus();
    for (const run of await this.evals.runsWithStatus(RUNNING)) await this.queue.queueBatch(run.id, 'eval_run');
  }

  /** Queues a new run. */
  async enqueue(runId: string): Promise<void> {
    await this.queue.queueBatch(runId, 'eval_run');
  }

  /** Cancels a queued or running run: no further row starts, rows in flight are dropped on every instance; false when it had ended. */
  async cancel(runId: string): Promise<boolean> {
    if (!(await this.evals.transitionRun(runId, RUNNING, 'canceled'))) return false;
    this.lines.stopLines(runId);
    await this.queue.queueFinalise(runId, 'eval_run');
    return true;
  }

  beginStop(): void {
    this.lines.beginStop();
  }

  stopped(): void {
    this.lines.stopped();
  }

  abortLines(runId: string): void {
    this.lines.abortLines(runId);
  }

  announceStopsTo(announce: (runId: string) => void): void {
    this.lines.announceStopsTo(announce);
  }

  private async startRun(id: string): Promise<void> {
    const run = await this.evals.getRun(id);
    if (!run || !RUNNING.includes(run.status)) return;
    try {
      const rows = await evalRows(run.data_source.source, this.files);
      if (run.status === 'queued')
        await this.evals.transitionRun(id, ['queued'], 'in_progress', { total: rows.length });
      const stored = await this.evals.storedItemIndexes(id);
      const lines: QueuedBatchLine[] = rows
        .map((row, index) => ({
          kind: 'eval_run' as const,
          batchId: id,
          keyId: run.key_id,
          line: index,
          customId: String(index),
          body: row,
        }))
        .filter((line) => !stored.has(line.line));
      if (lines.length === 0) return await this.finishIfDone(id);
      await this.queue.queueLines(lines);
    } catch (error) {
      if (this.lines.isStopping) throw error;
      this.logger.warn({ run: id, err: error }, 'eval run failed');
      const problem = error instanceof GatewayError ? error : undefined;
      await this.evals.transitionRun(id, RUNNING, 'failed', {
        error: { code: problem?.code ?? 'run_failed', message: (error as Error).message },
      });
    }
  }

  /** Samples and grades one row and stores its output item; throws BatchLineAbandoned when stopping cut it short. */
  private async runRow(line: QueuedBatchLine, abandon: AbortSignal): Promise<void> {
    const run = await this.evals.getRun(line.batchId);
    if (!run || run.status !== 'in_progress') return this.lines.forgetToken(line.batchId);
    const item = await this.lines.run(run.id, `Eval run ${run.id} row ${line.line}`, abandon, (signal) =>
      this.outputItem(run, line, signal),
    );
    if (item === 'stopped') return;
    if ((await this.evals.storeItem(item)) !== 'not_running') await this.finishIfDone(run.id);
  }

  /** The row's output item: its sample (asked of the run's model, or given), then each grader's verdict. */
  private async outputItem(run: EvalRunRecord, line: QueuedBatchLine, signal: AbortSignal): Promise<EvalItemRecord> {
    const row = line.body as EvalRow;
    const evaluation = await this.evals.getEval(run.eval_id);
    if (!evaluation) throw new BatchLineAbandoned(`Eval ${run.eval_id} is gone.`);
    const call: EvalCall = async (endpoint, body) => {
      const answer = await executeWithRateLimitWaits(
        this.execute,
        { endpoint, body, token: this.lines.tokenFor(run.id, run.key_id) },
        signal,
        this.lines.stopSignal,
      );
      if (!answer) throw new BatchLineAbandoned(`Eval run ${run.id} row ${line.line} was stopped with the gateway.`);
      return answer;
    };
    const usage: EvalModelCalls[] = [];
    let sample = givenSample(row);
    const namespaces: TemplateNamespaces = { item: row.item, sample: row.sample ?? {} };
    const item = (status: EvalItemRecord['status'], results: EvalItemRecord['results']): EvalItemRecord => ({
      run_id: run.id,
      item_index: line.line,
      id: newId('outputitem_'),
      created_at: seconds(this.now()),
      status,
      datasource_item: row.item,
      sample,
      results,
      usage,
    });
    if (run.data_source.type === 'completions') {
      let request: SampleRequest;
      try {
        request = sampleRequest(run.data_source, row);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        sample = { ...sample, model: run.data_source.model, error: { code: error.code, message: error.message } };
        return item('error', []);
      }
      const answer = await call('/v1/chat/completions', request.body);
      sample = request.sample(answer);
      if (answer.status >= 400) return item('error', []);
      usage.push(callUsage(run.data_source.model, answer));
      namespaces.sample = sampleNamespace(answer.body);
    }
    const grades = await gradeRow(evaluation.testing_criteria, namespaces, call);
    usage.push(...grades.usage);
    if (grades.error) {
      sample = { ...sample, error: sample.error ?? grades.error };
      return item('error', grades.results);
    }
    return item(grades.results.every((result) => result.passed) ? 'pass' : 'fail', grades.results);
  }

  /** Every row stored: the one instance that moves the run to `completed` writes its summary with it. */
  private async finishIfDone(runId: string): Promise<void> {
    const run = await this.evals.getRun(runId);
    if (!run) return;
    if (run.status === 'in_progress' && (await this.evals.itemCount(runId)) >= run.total) {
      const summary = await this.summary(run);
      await this.evals.transitionRun(runId, ['in_progress'], 'completed', { summary });
      this.lines.forgetToken(runId);
    } else if (run.status !== 'in_progress') this.lines.forgetToken(runId);
  }

  /** A cancelled run: its summary of the rows stored before the cancel. */
  private async finalise(runId: string): Promise<void> {
    const run = await this.evals.getRun(runId);
    if (!run || run.summary !== null || RUNNING.includes(run.status)) return;
    await this.evals.setSummary(runId, await this.summary(run));
    this.lines.forgetToken(runId);
  }

  private async summary(run: EvalRunRecord) {
    const evaluation = await this.evals.getEval(run.eval_id);
    return summariseRun(evaluation?.testing_criteria ?? [], await this.evals.itemTallies(run.id));
  }
}
