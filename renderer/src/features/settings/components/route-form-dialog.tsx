import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { FormActions } from '../../../components/form-actions';
import type { Capability } from '../../../lib/gateway-types';
import { useSaveRoute } from '../api/save-route';
import type { ProviderSetting, RouteSetting } from '../settings-types';
import { TextField } from '../../../components/text-field';

/** Every capability once; the Record makes the compiler insist on the full list. */
const CAPABILITY_LABELS: Record<Capability, string> = {
  chat: 'Chat',
  completions: 'Completions',
  embeddings: 'Embeddings',
  ocr: 'OCR',
  documents: 'Documents',
  vision: 'Vision',
  image_generation: 'Image generation',
  transcription: 'Transcription',
  moderation: 'Moderation',
  classification: 'Classification',
};

const splitList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

interface Props {
  /** The route to edit; without one the dialog adds a route. */
  editing?: RouteSetting;
  providers: ProviderSetting[];
  onClose(): void;
}

/** Add or edit a model route: which provider serves it, under which upstream name, with which capabilities. */
export function RouteFormDialog({ editing, providers, onClose }: Props) {
  const [id, setId] = useState(editing?.id ?? '');
  const [provider, setProvider] = useState(editing?.provider ?? providers[0]?.id ?? '');
  const [upstream, setUpstream] = useState(editing?.upstream_model ?? '');
  const [aliases, setAliases] = useState((editing?.aliases ?? []).join(', '));
  const [fallbacks, setFallbacks] = useState((editing?.fallbacks ?? []).join(', '));
  const [capabilities, setCapabilities] = useState<Capability[]>(editing?.capabilities ?? ['chat']);
  const save = useSaveRoute();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const {
      source: _source,
      in_config: _inConfig,
      id: _id,
      ...kept
    } = editing ?? { source: 'console', in_config: false, id: '' };
    // A balanced route keeps its deployments (edited in the config file or through the Settings API).
    const serving = editing?.deployments
      ? {}
      : { provider, ...(upstream.trim() ? { upstream_model: upstream.trim() } : { upstream_model: undefined }) };
    const route = {
      ...kept,
      ...serving,
      capabilities,
      aliases: splitList(aliases),
      fallbacks: splitList(fallbacks),
    };
    save.mutate({ id: id.trim(), route }, { onSuccess: onClose });
  };
  const toggle = (capability: Capability) =>
    setCapabilities(
      capabilities.includes(capability) ? capabilities.filter((c) => c !== capability) : [...capabilities, capability],
    );

  return (
    <Dialog title={editing ? `Edit route ${editing.id}` : 'Add a model route'} onClose={onClose}>
      <form className="stack" onSubmit={submit} aria-label={editing ? 'Edit route' : 'New route'}>
        <TextField
          label="Model id"
          required
          maxLength={200}
          value={id}
          disabled={!!editing}
          placeholder="my-model"
          onChange={setId}
          autoFocus={!editing}
        />
        {editing?.deployments ? (
          <p className="small muted" data-testid="route-deployments">
            Balanced over {editing.deployments.map((deployment) => deployment.provider).join(', ')} (
            {editing.routing_strategy ?? 'weighted'}); its deployments are edited in the config file or with PUT
            /settings/routes/{editing.id}.
          </p>
        ) : (
          <div className="two-col">
            <label className="field">
              <span>Provider</span>
              <select className="select" value={provider} onChange={(e) => setProvider(e.target.value)}>
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id} ({p.type})
                  </option>
                ))}
              </select>
            </label>
            <TextField label="Upstream model" value={upstream} placeholder="same as the id" onChange={setUpstream} />
          </div>
        )}
        <fieldset className="field capability-picker">
          <legend>Capabilities</legend>
          <div className="row">
            {(Object.keys(CAPABILITY_LABELS) as Capability[]).map((capability) => (
              <label key={capability} className="checkbox">
                <input
                  type="checkbox"
                  checked={capabilities.includes(capability)}
                  onChange={() => toggle(capability)}
                />
                {CAPABILITY_LABELS[capability]}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField label="Aliases" value={aliases} placeholder="comma separated" onChange={setAliases} />
        <TextField
          label="Fallbacks"
          value={fallbacks}
          placeholder="model ids tried in order when this route fails"
          onChange={setFallbacks}
        />
        {save.isError && <ErrorNotice error={save.error} title="The route could not be saved" />}
        <FormActions
          submitLabel={editing ? 'Save route' : 'Add route'}
          onCancel={onClose}
          saving={save.isPending}
          disabled={!id.trim() || capabilities.length === 0 || !provider}
        />
      </form>
    </Dialog>
  );
}
