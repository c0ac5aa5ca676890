import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useCreateEval } from '../api/create-eval';
import type { EvalObject, EvalRow } from '../eval-types';
import { graderDraftsProblem, graderFromDraft, newGraderDraft, type GraderDraft } from '../grader-drafts';
import { datasetFields } from '../parse-dataset';
import { DatasetEditor } from './dataset-editor';
import { GraderEditor } from './grader-editor';
import { MAX_MODELS, RunSettings, samplingOf, templateOf, type RunSettingsValue } from './run-settings';

/** The field the prompt fills in and the one graders compare with, guessed from the dataset's fields. */
function guessFields(fields: string[]): { input: string; reference: string } {
  const pick = (names: string[], fallback: string) => names.find((n) => fields.includes(n)) ?? fallback;
  const input = pick(['input', 'question', 'prompt'], fields[0] ?? 'input');
  const reference = pick(['expected', 'answer', 'reference', 'ideal'], fields.find((f) => f !== input) ?? 'expected');
  return { input, reference };
}

export function EvalCreateForm({ models, onCreated }: { models: GatewayModel[]; onCreated(e: EvalObject): void }) {
  const create = useCreateEval();
  const [name, setName] = useState('');
  const [rows, setRows] = useState<EvalRow[]>([]);
  const [graders, setGraders] = useState<GraderDraft[]>([newGraderDraft('string_check', 'expected', '')]);
  const [settings, setSettings] = useState<RunSettingsValue>({
    models: models[0] ? [models[0].id] : [],
    system: '',
    user: '{{item.input}}',
    temperature: 0,
    maxTokens: 256,
    label: '',
  });
  const fields = datasetFields(rows);
  const { reference } = guessFields(fields);

  /** New rows: the prompt and the graders follow the dataset's field names while they are still the defaults. */
  const takeRows = (next: EvalRow[]) => {
    setRows(next);
    const guessed = guessFields(datasetFields(next));
    const everyHasSystem = next.length > 0 && next.every((row) => typeof row.item.system === 'string');
    setSettings((s) => ({
      ...s,
      user: /^\{\{item\.\w+\}\}$/.test(s.user) ? `{{item.${guessed.input}}}` : s.user,
      system: everyHasSystem && !s.system ? '{{item.system}}' : s.system,
    }));
    setGraders((drafts) =>
      drafts.map((d) =>
        /^\{\{item\.\w+\}\}$/.test(d.reference) ? { ...d, reference: `{{item.${guessed.reference}}}` } : d,
      ),
    );
  };

  const problem =
    rows.length === 0
      ? 'Add rows to the dataset.'
      : settings.models.length === 0 || settings.models.length > MAX_MODELS
        ? `Choose 1 to ${MAX_MODELS} models.`
        : !settings.user.trim()
          ? 'Write the user message template.'
          : graderDraftsProblem(graders);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    create.mutate(
      {
        name: name.trim() || `Eval of ${rows.length} rows`,
        rows,
        graders: graders.map(graderFromDraft),
        runs: {
          models: settings.models,
          template: templateOf(settings),
          sampling: samplingOf(settings),
          label: settings.label,
        },
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <form className="card stack" onSubmit={submit} aria-label="New eval">
      <div className="card-title">New eval</div>
      <label className="field">
        <span>Name</span>
        <input
          className="input"
          value={name}
          maxLength={200}
          placeholder="e.g. support answers"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <div className="eval-form-grid">
        <section className="stack" aria-label="Dataset">
          <div className="field-label">Dataset</div>
          <DatasetEditor rows={rows} onChange={takeRows} />
          <div className="field-label">Graders</div>
          <GraderEditor drafts={graders} models={models} referenceField={reference} onChange={setGraders} />
        </section>
        <section className="stack" aria-label="Runs">
          <div className="field-label">Runs</div>
          <RunSettings value={settings} models={models} onChange={(patch) => setSettings({ ...settings, ...patch })} />
        </section>
      </div>
      {create.isError && <ErrorNotice error={create.error} title="The eval could not be created" />}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!!problem || create.isPending}>
          {create.isPending
            ? 'Creating…'
            : `Create and run on ${settings.models.length} model${settings.models.length === 1 ? '' : 's'}`}
        </button>
        {problem && <span className="small muted">{problem}</span>}
      </div>
    </form>
  );
}
