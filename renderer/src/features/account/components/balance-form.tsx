import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../../components/error-notice';
import { OptionalNumberField } from '../../../components/optional-number-field';
import type { Balance } from '../../../lib/gateway-types';
import { useUpdateBalance } from '../api/update-balance';

/** Owner-only: set the balance and the account's spending limit (empty limit = none). */
export function BalanceForm({ balance, onDone }: { balance: Balance; onDone(): void }) {
  const [amount, setAmount] = useState<number | null>(balance.amount);
  const [limit, setLimit] = useState<number | null>(balance.limit ?? null);
  const update = useUpdateBalance();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ ...(amount !== null ? { amount } : {}), limit }, { onSuccess: onDone });
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Balance and limit">
      <div className="two-col">
        <OptionalNumberField
          label={`Balance (${balance.currency})`}
          value={amount}
          onChange={setAmount}
          integer={false}
          placeholder="unchanged"
        />
        <OptionalNumberField
          label={`Spending limit (${balance.currency})`}
          value={limit}
          onChange={setLimit}
          min={0}
          integer={false}
          placeholder="no limit"
        />
      </div>
      {update.isError && <ErrorNotice error={update.error} title="The balance could not be saved" />}
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
