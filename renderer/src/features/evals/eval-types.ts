import type {
  EvalGrader,
  EvalObject,
  EvalOutputItemObject,
  EvalRow,
  EvalRunObject,
  TextSimilarityMetric,
} from '../../../../gateway/src/wire/eval-schemas';

export type { EvalGrader, EvalObject, EvalOutputItemObject, EvalRow, EvalRunObject, TextSimilarityMetric };
export type EvalRunStatus = EvalRunObject['status'];
export type ItemStatus = EvalOutputItemObject['status'];
export type GraderType = EvalGrader['type'];

/** OpenAI's cursor page, as the Evals API answers its lists. */
export interface CursorPage<T> {
  object: 'list';
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** Runs the gateway is still working on: their page keeps polling. */
export const isRunActive = (run: Pick<EvalRunObject, 'status'>): boolean =>
  run.status === 'queued' || run.status === 'in_progress';

/** The metric names as the form offers them; tsc fails here when the gateway's list (wire/eval-schemas.ts) changes. */
export const METRIC_LABELS = {
  fuzzy_match: 'Fuzzy match',
  bleu: 'BLEU',
  gleu: 'GLEU',
  meteor: 'METEOR',
  rouge_1: 'ROUGE-1',
  rouge_2: 'ROUGE-2',
  rouge_3: 'ROUGE-3',
  rouge_4: 'ROUGE-4',
  rouge_5: 'ROUGE-5',
  rouge_l: 'ROUGE-L',
  cosine: 'Cosine (built-in embedding model)',
} as const satisfies Record<TextSimilarityMetric, string>;

/** The metadata key that ties the runs started together ("run on N models": one run per model). */
export const RUN_GROUP_KEY = 'console_group';
