import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { FormActions } from '../../../components/form-actions';
import { ErrorNotice } from '../../../components/error-notice';
import { OptionalNumberField } from '../../../components/optional-number-field';
import type { KeyRole, PublicKey } from '../../../lib/gateway-types';
import { useCreateKey, type CreatedKey } from '../api/create-key';
import { useUpdateKey } from '../api/update-key';

interface Props {
  /** The key to edit; without one the dialog creates a key. */
  editing?: PublicKey;
  currency: string;
  onCreated(key: CreatedKey): void;
  onClose(): void;
}

/** Create a key (name, role, limits) or change an existing key's name and limits. */
export function KeyFormDialog({ editing, currency, onCreated, onClose }: Props) {
  const [name, setName] = useState(editing?.name ?? '');
  const [role, setRole] = useState<KeyRole>('member');
  const [spendLimit, setSpendLimit] = useState<number | null>(editing?.spend_limit ?? null);
  const [rpmLimit, setRpmLimit] = useState<number | null>(editing?.rpm_limit ?? null);
  const create = useCreateKey();
  const update = useUpdateKey();
  const mutation = editing ? update : create;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const limits = { spend_limit: spendLimit, rpm_limit: rpmLimit };
    if (editing) update.mutate({ id: editing.id, changes: { name: name.trim(), ...limits } }, { onSuccess: onClose });
    else create.mutate({ name: name.trim(), role, ...limits }, { onSuccess: onCreated });
  };

  return (
    <Dialog title={editing ? `Edit key ${editing.name}` : 'Create an API key'} onClose={onClose}>
      <form className="stack" onSubmit={submit} aria-label={editing ? 'Edit key' : 'New key'}>
        <label className="field">
          <span>Name</span>
          <input
            className="input"
            required
            maxLength={200}
            value={name}
            placeholder="CI pipeline"
            onChange={(e) => setName(e.target.value)}
            autoFocus
          />
        </label>
        {!editing && (
          <label className="field">
            <span>Role</span>
            <select className="select" value={role} onChange={(e) => setRole(e.target.value as KeyRole)}>
              <option value="member">Member: calls the API</option>
              <option value="owner">Owner: also manages keys, balance and models</option>
            </select>
          </label>
        )}
        <div className="two-col">
          <OptionalNumberField
            label={`Spend limit (${currency})`}
            value={spendLimit}
            onChange={setSpendLimit}
            min={0}
            integer={false}
            placeholder="no limit"
            hint="Total this key may spend."
          />
          <OptionalNumberField
            label="Requests per minute"
            value={rpmLimit}
            onChange={setRpmLimit}
            min={1}
            placeholder="no limit"
          />
        </div>
        {mutation.isError && (
          <ErrorNotice
            error={mutation.error}
            title={editing ? 'The key could not be saved' : 'The key could not be created'}
          />
        )}
        <FormActions
          submitLabel={editing ? 'Save' : 'Create key'}
          onCancel={onClose}
          saving={mutation.isPending}
          disabled={!name.trim()}
        />
      </form>
    </Dialog>
  );
}
