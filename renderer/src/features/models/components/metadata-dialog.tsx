import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { FormActions } from '../../../components/form-actions';
import { ErrorNotice } from '../../../components/error-notice';
import type { GatewayModel } from '../../../lib/gateway-types';
import { useUpdateModelMetadata } from '../api/update-model-metadata';

type Pair = { key: string; value: string };

/** Edits a fine-tuned model's metadata as key/value rows. */
export function MetadataDialog({ model, onClose }: { model: GatewayModel; onClose(): void }) {
  const [pairs, setPairs] = useState<Pair[]>(() => {
    const existing = Object.entries(model.metadata).map(([key, value]) => ({ key, value }));
    return existing.length ? existing : [{ key: '', value: '' }];
  });
  const update = useUpdateModelMetadata();
  const setPair = (index: number, change: Partial<Pair>) =>
    setPairs((all) => all.map((p, i) => (i === index ? { ...p, ...change } : p)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const metadata = Object.fromEntries(pairs.filter((p) => p.key.trim()).map((p) => [p.key.trim(), p.value]));
    update.mutate({ id: model.id, metadata }, { onSuccess: onClose });
  };
  return (
    <Dialog title={`Metadata of ${model.id}`} onClose={onClose}>
      <form className="stack" onSubmit={submit} aria-label="Metadata">
        <p className="small muted">Keys you leave out keep their value; set a value to empty to clear it.</p>
        {pairs.map((pair, i) => (
          <div className="row" key={i}>
            <input
              className="input grow mono"
              aria-label={`Key ${i + 1}`}
              placeholder="key"
              value={pair.key}
              onChange={(e) => setPair(i, { key: e.target.value })}
            />
            <input
              className="input grow"
              aria-label={`Value ${i + 1}`}
              placeholder="value"
              value={pair.value}
              onChange={(e) => setPair(i, { value: e.target.value })}
            />
          </div>
        ))}
        <div>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => setPairs((all) => [...all, { key: '', value: '' }])}
          >
            + Add a field
          </button>
        </div>
        {update.isError && <ErrorNotice error={update.error} title="The metadata could not be saved" />}
        <FormActions submitLabel="Save metadata" onCancel={onClose} saving={update.isPending} />
      </form>
    </Dialog>
  );
}
