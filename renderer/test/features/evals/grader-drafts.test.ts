import { describe, expect, it } from 'vitest';
import { graderDraftsProblem, graderFromDraft, newGraderDraft } from '../../../src/features/evals/grader-drafts';

describe('grader drafts', () => {
  it('become the testing criteria the Evals API takes', () => {
    expect(graderFromDraft(newGraderDraft('string_check', 'expected', ''))).toEqual({
      type: 'string_check',
      name: 'exact',
      input: '{{sample.output_text}}',
      reference: '{{item.expected}}',
      operation: 'eq',
    });
    expect(graderFromDraft({ ...newGraderDraft('text_similarity', 'answer', ''), metric: 'rouge_l' })).toEqual({
      type: 'text_similarity',
      name: 'similar',
      input: '{{sample.output_text}}',
      reference: '{{item.answer}}',
      evaluation_metric: 'rouge_l',
      pass_threshold: 0.8,
    });
    const label = graderFromDraft({
      ...newGraderDraft('label_model', 'expected', 'judge-model'),
      labels: ' good , bad ,',
      passingLabels: 'good',
    });
    expect(label).toMatchObject({ model: 'judge-model', labels: ['good', 'bad'], passing_labels: ['good'] });
    expect(label).toHaveProperty('input', [{ role: 'user', content: expect.stringContaining('{{item.expected}}') }]);
    expect(graderFromDraft(newGraderDraft('score_model', 'expected', 'judge-model'))).toMatchObject({
      type: 'score_model',
      range: [0, 1],
      pass_threshold: 0.5,
    });
  });

  it('say what keeps them from being sent', () => {
    const exact = newGraderDraft('string_check', 'expected', '');
    expect(graderDraftsProblem([])).toMatch(/at least one/);
    expect(graderDraftsProblem([exact, exact])).toMatch(/must differ/);
    expect(graderDraftsProblem([newGraderDraft('score_model', 'expected', '')])).toMatch(/judge model/);
    expect(
      graderDraftsProblem([{ ...newGraderDraft('label_model', 'expected', 'j'), passingLabels: 'great' }]),
    ).toMatch(/"great" is not one of the labels/);
    expect(graderDraftsProblem([exact, newGraderDraft('label_model', 'expected', 'j')])).toBeNull();
  });
});
