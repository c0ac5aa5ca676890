import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useStartRuns } from '../api/start-runs';
import type { EvalRow, EvalRunObject } from '../eval-types';
import { MAX_MODELS, RunSettings, samplingOf, templateOf, type RunSettingsValue } from './run-settings';

/** The settings of an earlier run, to change one thing (the prompt, a model) and run again. */
function settingsOf(run: EvalRunObject): RunSettingsValue {
  const source = run.data_source.type === 'completions' ? run.data_source : null;
  const messages = source?.input_messages.type === 'template' ? source.input_messages.template : [];
  const text = (role: string) => {
    const content = messages.find((m) => m.role === role)?.content;
    return typeof content === 'string' ? content : (content?.text ?? '');
  };
  return {
    models: source ? [source.model] : [],
    system: text('system'),
    user: text('user') || '{{item.input}}',
    temperature: source?.sampling_params?.temperature ?? 0,
    maxTokens: source?.sampling_params?.max_completion_tokens ?? null,
    label: '',
  };
}

/** The rows of an earlier run given inline (the console's runs are), to run them again. */
export const rowsOf = (run: EvalRunObject): EvalRow[] =>
  run.data_source.source.type === 'file_content' ? run.data_source.source.content : [];

/** Runs the eval again on the rows of its latest run: after a prompt change, or on other models. */
export function NewRunForm({
  evalId,
  latest,
  models,
  onStarted,
}: {
  evalId: string;
  latest: EvalRunObject;
  models: GatewayModel[];
  onStarted(): void;
}) {
  const start = useStartRuns();
  const [settings, setSettings] = useState(() => settingsOf(latest));
  const rows = rowsOf(latest);
  const ready = rows.length > 0 && settings.models.length > 0 && settings.models.length <= MAX_MODELS;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    start.mutate(
      {
        evalId,
        rows,
        models: settings.models,
        template: templateOf(settings),
        sampling: samplingOf(settings),
        label: settings.label,
      },
      { onSuccess: onStarted },
    );
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="New run">
      <p className="small muted">
        {rows.length > 0
          ? `On the ${rows.length} rows of “${latest.name}”. Change the prompt or the models, then compare the runs below.`
          : `“${latest.name}” reads its rows from an uploaded file: start runs on it through the API.`}
      </p>
      <RunSettings value={settings} models={models} onChange={(patch) => setSettings({ ...settings, ...patch })} />
      {start.isError && <ErrorNotice error={start.error} title="The run could not be started" />}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!ready || start.isPending}>
          {start.isPending
            ? 'Starting…'
            : `Run on ${settings.models.length} model${settings.models.length === 1 ? '' : 's'}`}
        </button>
      </div>
    </form>
  );
}
