import { Type, type Static } from '@sinclair/typebox';
import { Metadata } from './text-limits.js';

/**
 * OpenAI's Evals API (the `openai` SDK's `client.evals`): the evals, runs and output items the api
 * serves, the console reads and core runs. Requests are checked against these in core
 * (`core/evals/check-eval-input.ts`), which names the offending field.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** A message of a template (a run's `input_messages`, a model grader's `input`): text may hold `{{item.x}}` and `{{sample.x}}`. */
export const EvalMessage = Type.Object(
  {
    role: Type.Union([
      Type.Literal('user'),
      Type.Literal('assistant'),
      Type.Literal('system'),
      Type.Literal('developer'),
    ]),
    content: Type.Union([
      Type.String(),
      Type.Object({ type: Type.Literal('input_text'), text: Type.String() }),
      Type.Object({ type: Type.Literal('output_text'), text: Type.String() }),
    ]),
    type: Type.Optional(Type.Literal('message')),
  },
  { additionalProperties: false },
);
export type EvalMessage = Static<typeof EvalMessage>;

const GraderName = Type.String({ minLength: 1, maxLength: 200 });
const TemplateText = Type.String({ maxLength: 100_000 });

export const StringCheckGrader = Type.Object({
  type: Type.Literal('string_check'),
  name: GraderName,
  input: TemplateText,
  reference: TemplateText,
  operation: Type.Union([Type.Literal('eq'), Type.Literal('ne'), Type.Literal('like'), Type.Literal('ilike')]),
});

export const TEXT_SIMILARITY_METRICS = [
  'cosine',
  'fuzzy_match',
  'bleu',
  'gleu',
  'meteor',
  'rouge_1',
  'rouge_2',
  'rouge_3',
  'rouge_4',
  'rouge_5',
  'rouge_l',
] as const;
export type TextSimilarityMetric = (typeof TEXT_SIMILARITY_METRICS)[number];

export const TextSimilarityGrader = Type.Object({
  type: Type.Literal('text_similarity'),
  name: GraderName,
  input: TemplateText,
  reference: TemplateText,
  evaluation_metric: Type.Union(TEXT_SIMILARITY_METRICS.map((metric) => Type.Literal(metric))),
  pass_threshold: Type.Number({ minimum: 0, maximum: 1 }),
});

const GraderMessages = Type.Array(EvalMessage, { minItems: 1, maxItems: 100 });

export const LabelModelGrader = Type.Object({
  type: Type.Literal('label_model'),
  name: GraderName,
  model: Type.String({ minLength: 1 }),
  input: GraderMessages,
  labels: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }),
  passing_labels: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }),
});

export const ScoreModelSamplingParams = Type.Object(
  {
    temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
    top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
    seed: Type.Optional(Nullable(Type.Integer())),
    max_completions_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    reasoning_effort: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: false },
);

export const ScoreModelGrader = Type.Object({
  type: Type.Literal('score_model'),
  name: GraderName,
  model: Type.String({ minLength: 1 }),
  input: GraderMessages,
  range: Type.Optional(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 })),
  pass_threshold: Type.Optional(Type.Number()),
  sampling_params: Type.Optional(ScoreModelSamplingParams),
});

/** One testing criterion as stored and answered (python graders are refused: nothing here runs user code). */
export const EvalGrader = Type.Union([StringCheckGrader, TextSimilarityGrader, LabelModelGrader, ScoreModelGrader]);
export type EvalGrader = Static<typeof EvalGrader>;
export type StringCheckGrader = Static<typeof StringCheckGrader>;
export type TextSimilarityGrader = Static<typeof TextSimilarityGrader>;
export type LabelModelGrader = Static<typeof LabelModelGrader>;
export type ScoreModelGrader = Static<typeof ScoreModelGrader>;

/** The data source config as answered: the JSON schema of what a run's rows hold (`item`, and `sample` when included). */
export const EvalDataSourceConfig = Type.Object({
  type: Type.Literal('custom'),
  schema: Type.Record(Type.String(), Type.Unknown()),
});
export type EvalDataSourceConfig = Static<typeof EvalDataSourceConfig>;

export const EvalObject = Type.Object({
  object: Type.Literal('eval'),
  id: Type.String(),
  name: Type.String(),
  created_at: Type.Integer(),
  metadata: Nullable(Metadata()),
  data_source_config: EvalDataSourceConfig,
  testing_criteria: Type.Array(EvalGrader),
});
export type EvalObject = Static<typeof EvalObject>;

/** One row of a run's data: the `item` namespace, and optionally a given `sample`. */
export const EvalRow = Type.Object(
  {
    item: Type.Record(Type.String(), Type.Unknown()),
    sample: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type EvalRow = Static<typeof EvalRow>;

/** Where a run's rows come from: inline, or an uploaded JSONL file (one `{item, sample?}` or bare item per line). */
export const FileContentSource = Type.Object({
  type: Type.Literal('file_content'),
  content: Type.Array(EvalRow, { minItems: 1, maxItems: 100_000 }),
});
export const FileIdSource = Type.Object({ type: Type.Literal('file_id'), id: Type.String({ minLength: 1 }) });
export const EvalRunSource = Type.Union([FileContentSource, FileIdSource]);
export type EvalRunSource = Static<typeof EvalRunSource>;

/** The chat parameters of a `completions` run (OpenAI's `sampling_params`), in chat's ranges. */
export const EvalSamplingParams = Type.Object(
  {
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    seed: Type.Optional(Type.Integer()),
    max_completion_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    reasoning_effort: Type.Optional(Nullable(Type.String())),
    response_format: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    tools: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 128 })),
  },
  { additionalProperties: false },
);
export type EvalSamplingParams = Static<typeof EvalSamplingParams>;

export const JsonlRunDataSource = Type.Object({ type: Type.Literal('jsonl'), source: EvalRunSource });

export const CompletionsRunDataSource = Type.Object({
  type: Type.Literal('completions'),
  source: EvalRunSource,
  input_messages: Type.Union([
    Type.Object({ type: Type.Literal('template'), template: Type.Array(EvalMessage, { minItems: 1, maxItems: 100 }) }),
    Type.Object({ type: Type.Literal('item_reference'), item_reference: Type.String({ minLength: 1 }) }),
  ]),
  model: Type.String({ minLength: 1 }),
  sampling_params: Type.Optional(EvalSamplingParams),
});

export const EvalRunDataSource = Type.Union([JsonlRunDataSource, CompletionsRunDataSource]);
export type EvalRunDataSource = Static<typeof EvalRunDataSource>;
export type CompletionsRunDataSource = Static<typeof CompletionsRunDataSource>;

export const EVAL_RUN_STATUSES = ['queued', 'in_progress', 'completed', 'canceled', 'failed'] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

const TokenCounts = {
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  cached_tokens: Type.Integer(),
};

export const EvalResultCounts = Type.Object({
  total: Type.Integer(),
  passed: Type.Integer(),
  failed: Type.Integer(),
  errored: Type.Integer(),
});
export type EvalResultCounts = Static<typeof EvalResultCounts>;

export const EvalModelUsage = Type.Object({
  model_name: Type.String(),
  invocation_count: Type.Integer(),
  ...TokenCounts,
  cost: Type.Number({
    description: "Switchyard's addition: what the model's requests were billed, in the account's currency.",
  }),
  total_latency_ms: Type.Number({
    description: "Switchyard's addition: the time the gateway took to answer the model's requests, added up.",
  }),
});
export type EvalModelUsage = Static<typeof EvalModelUsage>;

export const EvalCriterionResult = Type.Object({
  testing_criteria: Type.String(),
  passed: Type.Integer(),
  failed: Type.Integer(),
});
export type EvalCriterionResult = Static<typeof EvalCriterionResult>;

export const EvalApiError = Type.Object({ code: Type.String(), message: Type.String() });
export type EvalApiError = Static<typeof EvalApiError>;

export const EvalRunObject = Type.Object({
  object: Type.Literal('eval.run'),
  id: Type.String(),
  eval_id: Type.String(),
  name: Type.String(),
  model: Nullable(Type.String()),
  status: Type.Union(EVAL_RUN_STATUSES.map((status) => Type.Literal(status))),
  created_at: Type.Integer(),
  metadata: Nullable(Metadata()),
  data_source: EvalRunDataSource,
  error: Nullable(EvalApiError),
  report_url: Type.String(),
  result_counts: EvalResultCounts,
  per_model_usage: Type.Array(EvalModelUsage),
  per_testing_criteria_results: Type.Array(EvalCriterionResult),
});
export type EvalRunObject = Static<typeof EvalRunObject>;

/** One grader's verdict on one row. */
export const EvalGraderResult = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    score: Type.Number(),
    passed: Type.Boolean(),
    sample: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
  },
  { additionalProperties: true },
);
export type EvalGraderResult = Static<typeof EvalGraderResult>;

/** What the model answered for one row (completions runs), or the row's given sample (jsonl runs). */
export const EvalSample = Type.Object({
  model: Type.String(),
  input: Type.Array(Type.Object({ role: Type.String(), content: Type.String() })),
  output: Type.Array(Type.Object({ role: Type.String(), content: Type.String() })),
  finish_reason: Type.String(),
  usage: Type.Object(TokenCounts),
  error: Nullable(EvalApiError),
  temperature: Nullable(Type.Number()),
  top_p: Nullable(Type.Number()),
  seed: Nullable(Type.Integer()),
  max_completion_tokens: Nullable(Type.Integer()),
});
export type EvalSample = Static<typeof EvalSample>;

export const EvalOutputItemObject = Type.Object({
  object: Type.Literal('eval.run.output_item'),
  id: Type.String(),
  run_id: Type.String(),
  eval_id: Type.String(),
  created_at: Type.Integer(),
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('error')]),
  datasource_item_id: Type.Integer(),
  datasource_item: Type.Record(Type.String(), Type.Unknown()),
  results: Type.Array(EvalGraderResult),
  sample: EvalSample,
});
export type EvalOutputItemObject = Static<typeof EvalOutputItemObject>;
