import type { SamplingSettings } from '../lib/sampling-settings';
import { OptionalNumberField } from './optional-number-field';
import { SliderField } from './slider-field';

/** The sampling settings' fields, as the chat and completions playgrounds show them. */
export function SamplingFields({
  settings,
  onChange,
}: {
  settings: SamplingSettings;
  onChange(patch: Partial<SamplingSettings>): void;
}) {
  return (
    <>
      <SliderField
        label="Temperature"
        value={settings.temperature}
        min={0}
        max={2}
        step={0.05}
        onChange={(temperature) => onChange({ temperature })}
      />
      <SliderField
        label="Top P"
        value={settings.topP}
        min={0}
        max={1}
        step={0.01}
        onChange={(topP) => onChange({ topP })}
      />
      <div className="two-col">
        <OptionalNumberField
          label="Max tokens"
          min={1}
          value={settings.maxTokens}
          onChange={(maxTokens) => onChange({ maxTokens })}
        />
        <OptionalNumberField
          label="Seed"
          value={settings.seed}
          placeholder="random"
          onChange={(seed) => onChange({ seed })}
        />
      </div>
      <div className="two-col">
        <OptionalNumberField
          label="Presence penalty"
          min={-2}
          max={2}
          integer={false}
          value={settings.presencePenalty ?? null}
          onChange={(presencePenalty) => onChange({ presencePenalty })}
        />
        <OptionalNumberField
          label="Frequency penalty"
          min={-2}
          max={2}
          integer={false}
          value={settings.frequencyPenalty ?? null}
          onChange={(frequencyPenalty) => onChange({ frequencyPenalty })}
        />
      </div>
      <label className="field">
        <span>Stop sequences</span>
        <textarea
          className="textarea mono"
          rows={2}
          placeholder="one per line"
          value={settings.stop}
          onChange={(e) => onChange({ stop: e.target.value })}
        />
      </label>
    </>
  );
}
