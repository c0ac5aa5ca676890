import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { FormActions } from '../../../components/form-actions';
import { useAddProvider } from '../api/add-provider';
import { useEditProvider } from '../api/edit-provider';
import { useTestProvider } from '../api/test-provider';
import type { ProviderInput, ProviderSetting } from '../settings-types';
import { IdField, TextField } from '../../../components/text-field';

interface Props {
  /** The provider to edit; without one the dialog adds a provider. */
  editing?: ProviderSetting;
  types: string[];
  onClose(): void;
}

/** Add or edit a provider: its kind, endpoint, API key (write-only) and the model a test calls. */
export function ProviderFormDialog({ editing, types, onClose }: Props) {
  const [id, setId] = useState(editing?.id ?? '');
  const [type, setType] = useState(
    editing?.type ?? (types.includes('openai-compatible') ? 'openai-compatible' : types[0]) ?? '',
  );
  const [baseUrl, setBaseUrl] = useState(editing?.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [testModel, setTestModel] = useState(editing?.test_model ?? '');
  const add = useAddProvider();
  const edit = useEditProvider();
  const save = editing ? edit : add;
  const test = useTestProvider();
  /** An upstream is tested once it is saved, so its state shows what the new URL and key really do. */
  const saved = (provider: ProviderSetting) => {
    if (provider.base_url) test.mutate(provider.id);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const provider: ProviderInput = {
      type,
      ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
      // An empty field keeps the key the gateway has.
      ...(apiKey ? { api_key: apiKey } : {}),
      ...(editing?.timeouts ? { timeouts: editing.timeouts } : {}),
      ...(testModel.trim() ? { test_model: testModel.trim() } : {}),
    };
    if (editing) edit.mutate({ id: editing.id, provider }, { onSuccess: saved });
    else add.mutate({ id: id.trim(), ...provider }, { onSuccess: saved });
  };

  return (
    <Dialog title={editing ? `Edit provider ${editing.id}` : 'Add a provider'} onClose={onClose}>
      <form className="stack" onSubmit={submit} aria-label={editing ? 'Edit provider' : 'New provider'}>
        <div className="two-col">
          <IdField label="Provider id" value={id} onChange={setId} editing={!!editing} placeholder="my-provider" />
          <label className="field">
            <span>Type</span>
            <select className="select" value={type} onChange={(e) => setType(e.target.value)} autoFocus={!!editing}>
              {types.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <TextField
          label="Base URL"
          type="url"
          value={baseUrl}
          placeholder="https://api.example.com/v1"
          onChange={setBaseUrl}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder={editing?.has_api_key ? 'set · leave empty to keep it' : 'not set'}
          aria-describedby="provider-key-note"
          onChange={setApiKey}
        />
        <p id="provider-key-note" className="small muted field-note">
          Write-only: the gateway never shows a key again.{' '}
          {editing ? `Currently ${editing.has_api_key ? 'set' : 'not set'}.` : ''}
        </p>
        <TextField
          label="Test model"
          value={testModel}
          placeholder="upstream model a test calls when no route uses this provider"
          onChange={setTestModel}
        />
        <p className="small muted field-note" data-testid="breaker-note">
          Circuit breaker:{' '}
          {editing?.in_config ? "the config file's settings for this provider, or the defaults" : 'the defaults'} (open
          after 5 failed requests in a row, try again after 10 s, then up to every 2 minutes). Only the config file
          changes them, with <span className="mono">breaker:</span> on the provider.
        </p>
        {save.isError && <ErrorNotice error={save.error} title="The provider could not be saved" />}
        <FormActions
          submitLabel={editing ? 'Save provider' : 'Add provider'}
          onCancel={onClose}
          saving={save.isPending}
          disabled={!id.trim() || !type}
        />
      </form>
    </Dialog>
  );
}
