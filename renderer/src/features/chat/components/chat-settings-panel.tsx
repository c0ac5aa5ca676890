import { ModelPicker } from '../../../components/model-picker';
import { OptionalNumberField } from '../../../components/optional-number-field';
import { SliderField } from '../../../components/slider-field';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { ChatSettings, ResponseFormat } from '../chat-types';

interface Props {
  models: GatewayModel[];
  settings: ChatSettings;
  onChange(patch: Partial<ChatSettings>): void;
}

export function ChatSettingsPanel({ models, settings, onChange }: Props) {
  return (
    <aside className="card stack" aria-label="Chat settings">
      <ModelPicker models={models} value={settings.model} onChange={(model) => onChange({ model })} />
      <label className="field">
        <span>System prompt</span>
        <textarea
          className="textarea"
          rows={4}
          placeholder="You are a helpful assistant."
          value={settings.system}
          onChange={(e) => onChange({ system: e.target.value })}
        />
      </label>
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
      <label className="field">
        <span>Response format</span>
        <select
          className="select"
          value={settings.responseFormat}
          onChange={(e) => onChange({ responseFormat: e.target.value as ResponseFormat })}
        >
          <option value="text">Text</option>
          <option value="json_object">JSON object</option>
        </select>
      </label>
    </aside>
  );
}
