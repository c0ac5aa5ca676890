import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import { FileDrop } from '../../../components/file-drop';
import { ModelPicker, resolveModel } from '../../../components/model-picker';
import { OptionalNumberField } from '../../../components/optional-number-field';
import { Tabs } from '../../../components/tabs';
import { useModelsWith } from '../../../lib/models-query';
import { useCreateBatch } from '../api/create-batch';
import { BATCH_ENDPOINTS, ENDPOINT_CAPABILITY, type BatchEndpoint } from '../batch-types';
import { buildBatchJsonl, COMPOSABLE_ENDPOINTS, isComposable, type ComposedRequest } from '../build-batch-jsonl';
import { BatchComposeEditor } from './batch-compose-editor';

type Source = 'compose' | 'upload';
type Endpoint = BatchEndpoint;

const SOURCES = [
  { id: 'compose', label: 'Compose requests' },
  { id: 'upload', label: 'Upload JSONL' },
] as const satisfies readonly { id: Source; label: string }[];

export function BatchCreateForm() {
  const [source, setSource] = useState<Source>('compose');
  const [endpoint, setEndpoint] = useState<Endpoint>('/v1/chat/completions');
  const [modelChoice, setModel] = useState<string | null>(null);
  const [maxTokens, setMaxTokens] = useState<number | null>(null);
  const [requests, setRequests] = useState<ComposedRequest[]>([{ customId: '', prompt: '' }]);
  const [upload, setUpload] = useState<{ file: File; lines: number } | null>(null);
  const [showJsonl, setShowJsonl] = useState(false);
  const models = useModelsWith(ENDPOINT_CAPABILITY[endpoint]).data ?? [];
  const model = resolveModel(models, modelChoice);
  const create = useCreateBatch();
  const jsonl = buildBatchJsonl(requests, { endpoint, model, maxTokens });
  const ready = source === 'compose' ? !!jsonl && !!model : !!upload;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = source === 'compose' ? new Blob([`${jsonl}\n`], { type: 'application/jsonl' }) : upload?.file;
    if (!input) return;
    create.mutate(
      {
        input,
        filename: source === 'compose' ? 'console-batch.jsonl' : (upload?.file.name ?? 'batch.jsonl'),
        endpoint,
      },
      { onSuccess: () => (source === 'compose' ? setRequests([{ customId: '', prompt: '' }]) : setUpload(null)) },
    );
  };

  return (
    <form className="card stack" onSubmit={submit} aria-label="New batch">
      <div className="card-title">New batch</div>
      <Tabs
        tabs={SOURCES}
        value={source}
        onChange={(s) => {
          setSource(s);
          if (s === 'compose' && !isComposable(endpoint)) setEndpoint('/v1/chat/completions');
        }}
        label="Batch input"
      />
      <div className="row batch-settings">
        <label className="field">
          <span>Endpoint</span>
          <select className="select" value={endpoint} onChange={(e) => setEndpoint(e.target.value as Endpoint)}>
            {(source === 'compose' ? COMPOSABLE_ENDPOINTS : BATCH_ENDPOINTS).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        {source === 'compose' && (
          <>
            <div className="batch-model">
              <ModelPicker models={models} value={model} onChange={setModel} />
            </div>
            {endpoint !== '/v1/embeddings' && (
              <OptionalNumberField label="Max tokens" value={maxTokens} onChange={setMaxTokens} min={1} />
            )}
          </>
        )}
      </div>
      {source === 'compose' ? (
        <>
          <BatchComposeEditor requests={requests} onChange={setRequests} />
          <div>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-expanded={showJsonl}
              onClick={() => setShowJsonl(!showJsonl)}
            >
              {showJsonl ? '▾' : '▸'} JSONL that will be uploaded
            </button>
          </div>
          {showJsonl && (
            <pre className="code-block" data-testid="batch-jsonl">
              {jsonl || '(no prompts yet)'}
            </pre>
          )}
        </>
      ) : (
        <FileDrop
          accept=".jsonl,.json,application/jsonl,application/x-ndjson,text/plain"
          compact
          label={upload ? `${upload.file.name} · ${upload.lines} lines — pick another` : 'Drop or pick a .jsonl file'}
          hint="One {custom_id, method, url, body} object per line"
          onFile={(file) =>
            void file.text().then((text) => setUpload({ file, lines: text.split('\n').filter((l) => l.trim()).length }))
          }
        />
      )}
      {create.isError && <ErrorNotice error={create.error} title="The batch could not be created" />}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!ready || create.isPending}>
          {create.isPending ? 'Creating…' : 'Create batch'}
        </button>
        {create.data && <span className="small muted">Created {create.data.id}</span>}
      </div>
    </form>
  );
}
