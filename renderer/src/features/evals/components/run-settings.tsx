import { OptionalNumberField } from '../../../components/optional-number-field';
import { SliderField } from '../../../components/slider-field';
import type { GatewayModel } from '../../../lib/gateway-types';

export const MAX_MODELS = 4;

/** What a "run on N models" takes besides the rows: the models, the prompt template and sampling. */
export interface RunSettingsValue {
  models: string[];
  system: string;
  user: string;
  temperature: number;
  maxTokens: number | null;
  label: string;
}

/** The template messages of the settings (a system message only when one is written). */
export const templateOf = (settings: RunSettingsValue) => [
  ...(settings.system.trim() ? [{ role: 'system' as const, content: settings.system }] : []),
  { role: 'user' as const, content: settings.user },
];

export const samplingOf = (settings: RunSettingsValue) => ({
  temperature: settings.temperature,
  ...(settings.maxTokens !== null ? { max_completion_tokens: settings.maxTokens } : {}),
});

interface Props {
  value: RunSettingsValue;
  models: GatewayModel[];
  onChange(patch: Partial<RunSettingsValue>): void;
}

/** Models (1 to 4: one run each), the prompt template and the sampling of the runs to start. */
export function RunSettings({ value, models, onChange }: Props) {
  const toggle = (id: string) =>
    onChange({
      models: value.models.includes(id) ? value.models.filter((m) => m !== id) : [...value.models, id],
    });
  return (
    <div className="stack">
      <fieldset className="stack" aria-label="Models to evaluate">
        <span className="field-label">Models (1 to {MAX_MODELS})</span>
        <div className="eval-models">
          {models.map((m) => (
            <label key={m.id} className="checkbox">
              <input
                type="checkbox"
                checked={value.models.includes(m.id)}
                disabled={
                  m.state === 'unavailable' || (!value.models.includes(m.id) && value.models.length >= MAX_MODELS)
                }
                onChange={() => toggle(m.id)}
              />
              <span className="mono">{m.id}</span>
            </label>
          ))}
        </div>
        <span className="field-hint" role="note">
          The Evals API samples one model per run: running on {Math.max(value.models.length, 1)} model
          {value.models.length === 1 ? '' : 's'} starts {Math.max(value.models.length, 1)} run
          {value.models.length === 1 ? '' : 's'} on the same rows, shown side by side.
        </span>
      </fieldset>
      <label className="field">
        <span>System message (optional)</span>
        <textarea
          className="textarea mono"
          rows={2}
          value={value.system}
          onChange={(e) => onChange({ system: e.target.value })}
        />
      </label>
      <label className="field">
        <span>User message template</span>
        <textarea
          className="textarea mono"
          rows={2}
          aria-label="User message template"
          value={value.user}
          onChange={(e) => onChange({ user: e.target.value })}
        />
        <span className="field-hint">{'{{item.field}}'} is replaced by each row's field.</span>
      </label>
      <SliderField
        label="Temperature"
        value={value.temperature}
        min={0}
        max={2}
        step={0.05}
        onChange={(temperature) => onChange({ temperature })}
      />
      <div className="two-col">
        <OptionalNumberField
          label="Max tokens"
          min={1}
          value={value.maxTokens}
          onChange={(maxTokens) => onChange({ maxTokens })}
        />
        <label className="field">
          <span>Run label (optional)</span>
          <input
            className="input"
            placeholder="e.g. v2: shorter prompt"
            value={value.label}
            onChange={(e) => onChange({ label: e.target.value })}
          />
        </label>
      </div>
    </div>
  );
}
