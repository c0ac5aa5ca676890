import type {
  EvalGrader,
  EvalGraderResult,
  EvalMessage,
  LabelModelGrader,
  ScoreModelGrader,
} from '../../wire/eval-schemas.js';
import { DEFAULT_EMBEDDING_MODEL } from '../../wire/default-models.js';
import type { EvalModelCalls } from '../../store/evals-repository.js';
import type { BatchExecution } from '../batch/batch-executor.js';
import { GatewayError } from '../errors/gateway-error.js';
import { fillTemplate, type TemplateNamespaces } from './fill-template.js';
import { stringCheck } from './string-check.js';
import { cosineSimilarity } from '../embeddings/cosine-similarity.js';
import { textSimilarity } from './text-similarity.js';

/** Posts one request to the gateway's own route as the run's key (billed, logged, rate-limited like any). */
export type EvalCall = (endpoint: string, body: Record<string, unknown>) => Promise<BatchExecution>;

/** One row's verdicts, and the requests the graders made (judges, embeddings). */
export interface RowGrades {
  results: EvalGraderResult[];
  usage: EvalModelCalls[];
  /** The first grader that could not grade (a judge that failed, a sample field missing): the item is errored. */
  error: { code: string; message: string } | null;
}

/** The failure of a request made for a row: `{code, message}` from the error body. */
export function callError(answer: BatchExecution): { code: string; message: string } {
  const body = answer.body as { code?: string; message?: string } | undefined;
  return { code: body?.code ?? `http_${answer.status}`, message: body?.message ?? `HTTP ${answer.status}` };
}

/** The usage of a chat or embeddings answer as one model's calls. */
export function callUsage(model: string, answer: BatchExecution): EvalModelCalls {
  const usage = (answer.body as { usage?: Record<string, unknown> } | undefined)?.usage ?? {};
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  const details = usage.prompt_tokens_details as { cached_tokens?: unknown } | undefined;
  return {
    model,
    calls: 1,
    prompt_tokens: count(usage.prompt_tokens),
    completion_tokens: count(usage.completion_tokens),
    cached_tokens: count(details?.cached_tokens),
    cost: answer.cost ?? 0,
    latency_ms: answer.latencyMs,
  };
}

/** A grader template message as chat takes it, its text filled from the row. */
function filledMessages(messages: EvalMessage[], namespaces: TemplateNamespaces, param: string) {
  return messages.map((message, index) => ({
    role: message.role,
    content: fillTemplate(
      typeof message.content === 'string' ? message.content : message.content.text,
      namespaces,
      `${param}[${index}].content`,
    ),
  }));
}

/** The message content of a chat answer. */
export const answerText = (body: unknown): string =>
  ((body as { choices?: { message?: { content?: string | null } }[] }).choices?.[0]?.message?.content ?? '').trim();

/** The `result` a judge answered: its JSON `{"result": …}`, or the answer's text when it is not that JSON. */
function judgeResult(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object' && 'result' in parsed)
      return (parsed as { result: unknown }).result;
    return parsed;
  } catch {
    return text;
  }
}

/** The label a judge chose: the one it answered, or else the only label its text names. */
function chosenLabel(text: string, labels: string[]): string | undefined {
  const result = judgeResult(text);
  if (typeof result === 'string') {
    const exact = labels.find((label) => label === result.trim());
    if (exact) return exact;
    const named = labels.filter((label) => result.toLowerCase().includes(label.toLowerCase()));
    if (named.length === 1) return named[0];
  }
  return undefined;
}

/** The score a judge gave: its JSON result, or the first number of its text. */
function givenScore(text: string): number | undefined {
  const result = judgeResult(text);
  if (typeof result === 'number') return result;
  const match = /-?\d+(?:\.\d+)?/.exec(String(result));
  return match ? Number(match[0]) : undefined;
}

/**
 * Grades one row with every testing criterion, in order (docs/evals.md, "Graders"): string_check
 * and text_similarity here, cosine on the built-in embedding model, label_model and score_model by
 * asking their judge model with structured output. A grader that cannot grade makes the item errored.
 */
export async function gradeRow(
  graders: EvalGrader[],
  namespaces: TemplateNamespaces,
  call: EvalCall,
): Promise<RowGrades> {
  const grades: RowGrades = { results: [], usage: [], error: null };
  for (const [index, grader] of graders.entries()) {
    const param = `testing_criteria[${index}]`;
    try {
      grades.results.push(await grade(grader, namespaces, call, param, grades.usage));
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      grades.error = { code: error.code, message: `${grader.name}: ${error.message}` };
      grades.results.push({ name: grader.name, type: grader.type, score: 0, passed: false, sample: null });
      break;
    }
  }
  return grades;
}

async function grade(
  grader: EvalGrader,
  namespaces: TemplateNamespaces,
  call: EvalCall,
  param: string,
  usage: EvalModelCalls[],
): Promise<EvalGraderResult> {
  const verdict = (score: number, passed: boolean, sample: Record<string, unknown> | null = null) => ({
    name: grader.name,
    type: grader.type,
    score,
    passed,
    sample,
  });
  switch (grader.type) {
    case 'string_check': {
      const input = fillTemplate(grader.input, namespaces, `${param}.input`);
      const passed = stringCheck(
        grader.operation,
        input,
        fillTemplate(grader.reference, namespaces, `${param}.reference`),
      );
      return verdict(passed ? 1 : 0, passed);
    }
    case 'text_similarity': {
      const input = fillTemplate(grader.input, namespaces, `${param}.input`);
      const reference = fillTemplate(grader.reference, namespaces, `${param}.reference`);
      const score =
        grader.evaluation_metric === 'cosine'
          ? await cosine(input, reference, call, usage)
          : textSimilarity(grader.evaluation_metric, input, reference);
      return verdict(score, score >= grader.pass_threshold);
    }
    case 'label_model': {
      const { text, sample } = await askJudge(grader, labelFormat(grader), namespaces, call, param, usage);
      const label = chosenLabel(text, grader.labels);
      if (label === undefined)
        throw new GatewayError(
          502,
          'judge_answer_unreadable',
          `the judge answered "${text.slice(0, 200)}", not one of the labels.`,
        );
      const passed = grader.passing_labels.includes(label);
      return verdict(passed ? 1 : 0, passed, { ...sample, label });
    }
    case 'score_model': {
      const [low, high] = grader.range ?? [0, 1];
      const { text, sample } = await askJudge(grader, scoreFormat(low!, high!), namespaces, call, param, usage);
      const score = givenScore(text);
      if (score === undefined || score < low! || score > high!)
        throw new GatewayError(
          502,
          'judge_answer_unreadable',
          `the judge answered "${text.slice(0, 200)}", not a score in [${low}, ${high}].`,
        );
      // Without a pass_threshold a score passes from the middle of the range up.
      return verdict(score, score >= (grader.pass_threshold ?? (low! + high!) / 2), sample);
    }
  }
}

const labelFormat = (grader: LabelModelGrader) => ({
  type: 'json_schema',
  json_schema: {
    name: 'label',
    strict: true,
    schema: {
      type: 'object',
      properties: { result: { type: 'string', enum: grader.labels } },
      required: ['result'],
      additionalProperties: false,
    },
  },
});

const scoreFormat = (low: number, high: number) => ({
  type: 'json_schema',
  json_schema: {
    name: 'score',
    strict: true,
    schema: {
      type: 'object',
      properties: { result: { type: 'number', minimum: low, maximum: high } },
      required: ['result'],
      additionalProperties: false,
    },
  },
});

/** Asks a model grader's judge (through the gateway's chat route: routed, billed, logged); its answer's text. */
async function askJudge(
  grader: LabelModelGrader | ScoreModelGrader,
  responseFormat: Record<string, unknown>,
  namespaces: TemplateNamespaces,
  call: EvalCall,
  param: string,
  usage: EvalModelCalls[],
): Promise<{ text: string; sample: Record<string, unknown> }> {
  const messages = filledMessages(grader.input, namespaces, `${param}.input`);
  const params = grader.type === 'score_model' ? (grader.sampling_params ?? {}) : {};
  const answer = await call('/v1/chat/completions', {
    model: grader.model,
    messages,
    response_format: responseFormat,
    ...(params.temperature == null ? {} : { temperature: params.temperature }),
    ...(params.top_p == null ? {} : { top_p: params.top_p }),
    ...(params.seed == null ? {} : { seed: params.seed }),
    ...(params.max_completions_tokens == null ? {} : { max_completion_tokens: params.max_completions_tokens }),
  });
  if (answer.status >= 400) {
    const { code, message } = callError(answer);
    throw new GatewayError(502, code, `the judge ${grader.model} failed: ${message}`);
  }
  const calls = callUsage(grader.model, answer);
  usage.push(calls);
  const text = answerText(answer.body);
  return {
    text,
    sample: {
      model: grader.model,
      output: [{ role: 'assistant', content: text }],
      usage: {
        prompt_tokens: calls.prompt_tokens,
        completion_tokens: calls.completion_tokens,
        total_tokens: calls.prompt_tokens + calls.completion_tokens,
        cached_tokens: calls.cached_tokens,
      },
    },
  };
}

/** The cosine of the two texts' embeddings by the built-in embedding model (offline). */
async function cosine(input: string, reference: string, call: EvalCall, usage: EvalModelCalls[]): Promise<number> {
  const answer = await call('/v1/embeddings', { model: DEFAULT_EMBEDDING_MODEL, input: [input, reference] });
  if (answer.status >= 400) {
    const { code, message } = callError(answer);
    throw new GatewayError(502, code, `the embedding model failed: ${message}`);
  }
  usage.push(callUsage(DEFAULT_EMBEDDING_MODEL, answer));
  const data = (answer.body as { data: { index: number; embedding: number[] }[] }).data;
  const byIndex = (index: number) => data.find((entry) => entry.index === index)!.embedding;
  return cosineSimilarity(byIndex(0), byIndex(1));
}
