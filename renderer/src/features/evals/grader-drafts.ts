import type { EvalGrader, GraderType, TextSimilarityMetric } from './eval-types';

/** A grader as its form edits it: every field as typed, labels as comma-separated text. */
export interface GraderDraft {
  type: GraderType;
  name: string;
  input: string;
  reference: string;
  operation: 'eq' | 'ne' | 'like' | 'ilike';
  metric: TextSimilarityMetric;
  threshold: number;
  /** The judge of a label_model or score_model grader. */
  model: string;
  /** The judge's prompt: the user message, with `{{item.x}}` and `{{sample.output_text}}`. */
  prompt: string;
  labels: string;
  passingLabels: string;
}

export const GRADER_TYPES = [
  { id: 'string_check', label: 'String check' },
  { id: 'text_similarity', label: 'Text similarity' },
  { id: 'label_model', label: 'Label model (judge)' },
  { id: 'score_model', label: 'Score model (judge)' },
] as const satisfies readonly { id: GraderType; label: string }[];

const OUTPUT = '{{sample.output_text}}';

/** A new grader of this type, comparing the answer with `referenceField` of each item. */
export function newGraderDraft(type: GraderType, referenceField: string, judge: string): GraderDraft {
  const reference = `{{item.${referenceField}}}`;
  return {
    type,
    name: { string_check: 'exact', text_similarity: 'similar', label_model: 'judge', score_model: 'score' }[type],
    input: OUTPUT,
    reference,
    operation: 'eq',
    metric: 'fuzzy_match',
    threshold: type === 'score_model' ? 0.5 : 0.8,
    model: judge,
    prompt:
      type === 'label_model'
        ? `Reference answer: ${reference}\nAnswer: ${OUTPUT}\nIs the answer correct? Reply with one label.`
        : `Reference answer: ${reference}\nAnswer: ${OUTPUT}\nScore the answer from 0 (wrong) to 1 (right).`,
    labels: 'correct, incorrect',
    passingLabels: 'correct',
  };
}

const list = (text: string) =>
  text
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);

/** The testing criterion the Evals API takes for a draft. */
export function graderFromDraft(draft: GraderDraft): EvalGrader {
  const name = draft.name.trim();
  switch (draft.type) {
    case 'string_check':
      return { type: 'string_check', name, input: draft.input, reference: draft.reference, operation: draft.operation };
    case 'text_similarity':
      return {
        type: 'text_similarity',
        name,
        input: draft.input,
        reference: draft.reference,
        evaluation_metric: draft.metric,
        pass_threshold: draft.threshold,
      };
    case 'label_model':
      return {
        type: 'label_model',
        name,
        model: draft.model,
        input: [{ role: 'user', content: draft.prompt }],
        labels: list(draft.labels),
        passing_labels: list(draft.passingLabels),
      };
    case 'score_model':
      return {
        type: 'score_model',
        name,
        model: draft.model,
        input: [{ role: 'user', content: draft.prompt }],
        range: [0, 1],
        pass_threshold: draft.threshold,
      };
  }
}

/** What keeps a set of drafts from being sent, in words; null when they can be. */
export function graderDraftsProblem(drafts: readonly GraderDraft[]): string | null {
  if (drafts.length === 0) return 'Add at least one grader.';
  const names = drafts.map((d) => d.name.trim());
  if (names.some((n) => !n)) return 'Every grader needs a name.';
  if (new Set(names).size !== names.length) return 'Grader names must differ: results are reported by name.';
  for (const draft of drafts) {
    if ((draft.type === 'label_model' || draft.type === 'score_model') && !draft.model)
      return `${draft.name}: choose the judge model.`;
    if (draft.type === 'label_model') {
      const labels = list(draft.labels);
      const passing = list(draft.passingLabels);
      if (labels.length === 0 || passing.length === 0) return `${draft.name}: give the labels and the passing ones.`;
      const unknown = passing.find((label) => !labels.includes(label));
      if (unknown) return `${draft.name}: the passing label "${unknown}" is not one of the labels.`;
    }
  }
  return null;
}
