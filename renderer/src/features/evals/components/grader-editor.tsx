import { ModelPicker } from '../../../components/model-picker';
import type { GatewayModel } from '../../../lib/gateway-types';
import { METRIC_LABELS, type GraderType, type TextSimilarityMetric } from '../eval-types';
import { GRADER_TYPES, newGraderDraft, type GraderDraft } from '../grader-drafts';

interface Props {
  drafts: GraderDraft[];
  models: GatewayModel[];
  referenceField: string;
  onChange(drafts: GraderDraft[]): void;
}

const OPERATIONS = [
  { id: 'eq', label: 'equals' },
  { id: 'ne', label: 'differs from' },
  { id: 'like', label: 'contains' },
  { id: 'ilike', label: 'contains, any case' },
] as const;

function GraderFields({
  draft,
  models,
  set,
}: {
  draft: GraderDraft;
  models: GatewayModel[];
  set(patch: Partial<GraderDraft>): void;
}) {
  const judged = draft.type === 'label_model' || draft.type === 'score_model';
  return (
    <>
      {!judged && (
        <div className="two-col">
          <label className="field">
            <span>Input</span>
            <input className="input mono" value={draft.input} onChange={(e) => set({ input: e.target.value })} />
          </label>
          <label className="field">
            <span>Reference</span>
            <input
              className="input mono"
              value={draft.reference}
              onChange={(e) => set({ reference: e.target.value })}
            />
          </label>
        </div>
      )}
      {draft.type === 'string_check' && (
        <label className="field">
          <span>Passes when the input</span>
          <select
            className="select"
            value={draft.operation}
            onChange={(e) => set({ operation: e.target.value as GraderDraft['operation'] })}
          >
            {OPERATIONS.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label} the reference ({o.id})
              </option>
            ))}
          </select>
        </label>
      )}
      {draft.type === 'text_similarity' && (
        <label className="field">
          <span>Metric</span>
          <select
            className="select"
            value={draft.metric}
            onChange={(e) => set({ metric: e.target.value as TextSimilarityMetric })}
          >
            {Object.entries(METRIC_LABELS).map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      {judged && (
        <>
          <ModelPicker label="Judge model" models={models} value={draft.model} onChange={(model) => set({ model })} />
          <label className="field">
            <span>Judge prompt</span>
            <textarea
              className="textarea mono"
              rows={3}
              value={draft.prompt}
              onChange={(e) => set({ prompt: e.target.value })}
            />
          </label>
        </>
      )}
      {draft.type === 'label_model' && (
        <div className="two-col">
          <label className="field">
            <span>Labels (comma-separated)</span>
            <input className="input" value={draft.labels} onChange={(e) => set({ labels: e.target.value })} />
          </label>
          <label className="field">
            <span>Passing labels</span>
            <input
              className="input"
              value={draft.passingLabels}
              onChange={(e) => set({ passingLabels: e.target.value })}
            />
          </label>
        </div>
      )}
      {(draft.type === 'text_similarity' || draft.type === 'score_model') && (
        <label className="field">
          <span>Pass threshold (0–1)</span>
          <input
            className="input"
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={draft.threshold}
            onChange={(e) => set({ threshold: Number(e.target.value) })}
          />
        </label>
      )}
    </>
  );
}

/** The eval's graders: each type's fields, templates naming `{{item.x}}` and `{{sample.output_text}}`. */
export function GraderEditor({ drafts, models, referenceField, onChange }: Props) {
  const set = (index: number, patch: Partial<GraderDraft>) =>
    onChange(drafts.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  const add = (type: GraderType) => {
    const draft = newGraderDraft(type, referenceField, models[0]?.id ?? '');
    const taken = new Set(drafts.map((d) => d.name));
    let name = draft.name;
    for (let n = 2; taken.has(name); n++) name = `${draft.name}-${n}`;
    onChange([...drafts, { ...draft, name }]);
  };
  return (
    <div className="stack">
      {drafts.map((draft, index) => (
        <fieldset key={index} className="eval-grader stack" aria-label={`Grader ${draft.name || index + 1}`}>
          <div className="row">
            <span className="badge">{GRADER_TYPES.find((t) => t.id === draft.type)?.label}</span>
            <label className="field grow">
              <span className="visually-hidden">Grader name</span>
              <input
                className="input"
                aria-label="Grader name"
                value={draft.name}
                onChange={(e) => set(index, { name: e.target.value })}
              />
            </label>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-label={`Remove grader ${draft.name}`}
              onClick={() => onChange(drafts.filter((_, i) => i !== index))}
            >
              ✕
            </button>
          </div>
          <GraderFields draft={draft} models={models} set={(patch) => set(index, patch)} />
        </fieldset>
      ))}
      <div className="row">
        <span className="small muted">Add a grader:</span>
        {GRADER_TYPES.map((t) => (
          <button key={t.id} type="button" className="btn btn-sm" onClick={() => add(t.id)}>
            + {t.label}
          </button>
        ))}
      </div>
    </div>
  );
}
