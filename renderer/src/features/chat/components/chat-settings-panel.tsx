import { ModelPicker } from '../../../components/model-picker';
import { SamplingFields } from '../../../components/sampling-fields';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { ChatSettings, ResponseFormat } from '../chat-types';
import { McpServerPicker } from './mcp-server-picker';

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
      <SamplingFields settings={settings} onChange={onChange} />
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
      <McpServerPicker
        selected={settings.mcpServers ?? []}
        approval={settings.mcpApproval ?? 'server'}
        onChange={onChange}
      />
    </aside>
  );
}
