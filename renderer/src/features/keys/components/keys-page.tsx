import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { isForbidden, OwnerRequiredNotice } from '../../../components/owner-required-notice';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { formatCost, formatUnixTime } from '../../../lib/format';
import type { PublicKey } from '../../../lib/gateway-types';
import type { CreatedKey } from '../api/create-key';
import { useKeys } from '../api/list-keys';
import { useRevokeKey } from '../api/revoke-key';
import { KeyFormDialog } from './key-form-dialog';
import { NewKeyDialog } from './new-key-dialog';
import { CellText } from '../../../components/cell-text';
import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';

type Open =
  | { kind: 'create' }
  | { kind: 'edit'; key: PublicKey }
  | { kind: 'revoke'; key: PublicKey }
  | { kind: 'created'; key: CreatedKey }
  | null;

/** The columns of the keys table; `open` opens a key's dialog. */
function keyColumns(
  currentKeyId: string | undefined,
  currency: string,
  open: (next: Open) => void,
): Column<PublicKey>[] {
  return [
    {
      header: 'Name',
      cell: (k) => (
        <>
          <CellText text={k.name} />
          {k.id === currentKeyId && <span className="badge badge-accent table-badge">this key</span>}
        </>
      ),
    },
    {
      header: 'Role',
      cell: (k) => <span className={`badge${k.role === 'owner' ? ' badge-accent' : ''}`}>{k.role}</span>,
    },
    { header: 'Key', className: 'mono', cell: (k) => k.prefix },
    {
      header: 'Created · last used',
      cell: (k) => (
        <>
          <div>{formatUnixTime(k.created_at)}</div>
          <div className="faint">
            {k.last_used_at === null ? 'never used' : `used ${formatUnixTime(k.last_used_at)}`}
          </div>
        </>
      ),
    },
    {
      header: 'Limits',
      cell: (k) => (
        <>
          <div>{k.spend_limit === null ? 'no spend limit' : `${formatCost(k.spend_limit, currency)} max`}</div>
          <div className="faint">{k.rpm_limit === null ? 'no rate limit' : `${k.rpm_limit} req/min`}</div>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (k) =>
        k.revoked ? <span className="badge badge-error">revoked</span> : <span className="badge badge-ok">active</span>,
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (k) =>
        !k.revoked && (
          <RowActions
            actions={[
              { label: 'Edit', name: `Edit ${k.name}`, onClick: () => open({ kind: 'edit', key: k }) },
              {
                label: 'Revoke',
                name: `Revoke ${k.name}`,
                danger: true,
                onClick: () => open({ kind: 'revoke', key: k }),
              },
            ]}
          />
        ),
    },
  ];
}

export function KeysPage() {
  const keys = useKeys();
  const account = useAccount();
  const revoke = useRevokeKey();
  const [open, setOpen] = useState<Open>(null);
  const close = () => {
    revoke.reset();
    setOpen(null);
  };
  const currency = account.data?.balance.currency ?? 'USD';
  const currentKeyId = account.data?.api_key.id;
  const forbidden = isForbidden(keys.error) || account.data?.api_key.role === 'member';
  return (
    <div className="page">
      <PageHeader title="Keys" description="API keys of this gateway: who may call it, with which role and limits.">
        {!forbidden && (
          <button type="button" className="btn btn-primary" onClick={() => setOpen({ kind: 'create' })}>
            + Create key
          </button>
        )}
      </PageHeader>
      {forbidden ? (
        <OwnerRequiredNotice what="Managing API keys" error={keys.error} />
      ) : (
        <section className="card table-card" aria-label="API keys">
          {keys.isPending ? (
            <div className="table-card-pad">
              <Loading label="Loading keys…" />
            </div>
          ) : keys.isError ? (
            <div className="table-card-pad">
              <ErrorNotice error={keys.error} title="The keys could not be loaded" onRetry={() => keys.refetch()} />
            </div>
          ) : (
            <DataTable
              testId="keys-table"
              columns={keyColumns(currentKeyId, currency, setOpen)}
              rows={keys.data.data}
              rowKey={(k) => k.id}
              rowLabel={(k) => k.name}
              rowClassName={(k) => (k.revoked ? 'row-muted' : undefined)}
              empty={<EmptyState icon="⚷" title="No keys yet" />}
            />
          )}
        </section>
      )}
      {(open?.kind === 'create' || open?.kind === 'edit') && (
        <KeyFormDialog
          editing={open.kind === 'edit' ? open.key : undefined}
          currency={currency}
          onClose={close}
          onCreated={(key) => setOpen({ kind: 'created', key })}
        />
      )}
      {open?.kind === 'created' && <NewKeyDialog created={open.key} onClose={close} />}
      {open?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${open.key.name}?`}
          confirmLabel="Revoke key"
          pending={revoke.isPending}
          error={revoke.error}
          onConfirm={() =>
            revoke.mutate(
              {
                id: open.key.id,
                ...(open.key.id === currentKeyId
                  ? {
                      signOutReason: `You revoked ${open.key.name} (${open.key.prefix}), the key this console was signed in with. Sign in with another key.`,
                    }
                  : {}),
              },
              { onSuccess: close },
            )
          }
          onClose={close}
        >
          <p>
            Requests with <span className="mono">{open.key.prefix}</span> will be refused at once. This cannot be
            undone.
          </p>
          {open.key.id === currentKeyId && (
            <div className="notice notice-warn" data-testid="revoke-own-key-warning">
              <span className="notice-title">This is the key you are signed in with.</span>
              <span>
                The console will sign you out as soon as it is revoked; you will need another key to sign back in.
              </span>
            </div>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
