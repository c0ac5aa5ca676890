import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorNotice } from '../../../components/error-notice';
import { RowActions } from '../../../components/row-actions';
import { HEALTH_TONE_CLASS, healthView } from '../../../lib/provider-health';
import { useDeleteProvider } from '../api/delete-provider';
import { useResetProvider } from '../api/reset-provider';
import { useProviderCheck, useTestProvider } from '../api/test-provider';
import type { ProviderCheck, ProviderSetting } from '../settings-types';
import { ProviderFormDialog } from './provider-form-dialog';
import { entrySourceLabel } from '../file-source-label';

type Open =
  { kind: 'add' } | { kind: 'edit'; provider: ProviderSetting } | { kind: 'delete'; provider: ProviderSetting } | null;

function CheckResult({ check }: { check: ProviderCheck }) {
  const what = check.checked === 'request' ? `${check.capability} on ${check.model}` : 'engine state';
  return (
    <div className={`notice ${check.ok ? 'notice-ok' : 'notice-error'}`} role="status" data-testid="provider-check">
      <span className="notice-title">
        {check.ok ? 'Connected' : 'Failed'} · {what} · {check.latency_ms} ms
      </span>
      {check.error && <span className="cell-wrap">{check.error}</span>}
    </div>
  );
}

interface ProviderActionsProps {
  provider: ProviderSetting;
  onEdit(provider: ProviderSetting): void;
  onDelete(provider: ProviderSetting): void;
}

/** Test, edit, reset and remove (or restore a removed one), with the last test's result. */
function ProviderActions({ provider, onEdit, onDelete }: ProviderActionsProps) {
  const test = useTestProvider();
  const reset = useResetProvider();
  // This session's test, else the gateway's record of the last one (it outlives a reload).
  const check = useProviderCheck(provider.id) ?? provider.last_check;
  const restore = () => reset.mutate(provider.id);
  return (
    <>
      <RowActions
        className="provider-actions"
        actions={
          provider.removed
            ? [{ label: 'Restore', name: `Restore ${provider.id}`, disabled: reset.isPending, onClick: restore }]
            : [
                {
                  label: test.isPending ? 'Testing…' : 'Test',
                  name: `Test ${provider.id}`,
                  disabled: test.isPending,
                  onClick: () => test.mutate(provider.id),
                },
                { label: 'Edit', name: `Edit ${provider.id}`, onClick: () => onEdit(provider) },
                provider.source === 'console' &&
                  provider.in_config && {
                    label: 'Reset',
                    name: `Reset ${provider.id}`,
                    disabled: reset.isPending,
                    onClick: restore,
                  },
                { label: 'Remove', name: `Remove ${provider.id}`, danger: true, onClick: () => onDelete(provider) },
              ]
        }
      />
      {check && <CheckResult check={check} />}
      {test.isError && <ErrorNotice error={test.error} title="The test could not run" />}
      {reset.isError && <ErrorNotice error={reset.error} title="The provider could not be restored" />}
    </>
  );
}

function ProviderHealth({ provider }: { provider: ProviderSetting }) {
  const health = healthView(provider.health, provider.removed);
  return (
    <>
      <span className={`badge ${HEALTH_TONE_CLASS[health.tone]}`} data-testid="provider-state">
        {health.label}
      </span>
      {provider.breaker.state === 'half_open' && (
        <span className="badge badge-warn table-badge">breaker half open</span>
      )}
      {health.note && (
        <div className="faint small clamp-3" title={health.note}>
          {health.note}
        </div>
      )}
    </>
  );
}

function providerColumns(
  configPath: string | null,
  actions: Omit<ProviderActionsProps, 'provider'>,
): Column<ProviderSetting>[] {
  return [
    {
      header: 'Id',
      className: 'mono cell-wrap',
      cell: (provider) => (
        <>
          {provider.id}
          <div>
            <span className={`badge source-badge${provider.source === 'console' ? ' badge-accent' : ''}`}>
              {entrySourceLabel(provider, configPath)}
            </span>
          </div>
        </>
      ),
    },
    { header: 'Type', className: 'cell-nowrap', cell: (provider) => provider.type },
    {
      header: 'Endpoint',
      className: 'mono cell-wrap',
      cell: (provider) => (
        <>
          {provider.base_url ?? <span className="faint">built in</span>}
          {/* A local engine (no base URL) takes no key: "not set" would read as something missing. */}
          {provider.base_url && <div className="faint small">key {provider.has_api_key ? 'set' : 'not set'}</div>}
        </>
      ),
    },
    { header: 'State', className: 'provider-state-cell', cell: (provider) => <ProviderHealth provider={provider} /> },
    { header: 'Routes', numeric: true, cell: (provider) => provider.routes.length },
    {
      header: 'Actions',
      headerHidden: true,
      className: 'settings-test-cell',
      cell: (provider) => <ProviderActions provider={provider} {...actions} />,
    },
  ];
}

/** The providers: add, edit, test, remove (a config-file provider is hidden and can be restored). */
export function ProvidersSection({
  providers,
  types,
  configPath,
}: {
  providers: ProviderSetting[];
  types: string[];
  configPath: string | null;
}) {
  const [open, setOpen] = useState<Open>(null);
  const remove = useDeleteProvider();
  const close = () => {
    remove.reset();
    setOpen(null);
  };
  return (
    <section className="card table-card" aria-label="Providers">
      <div className="card-title table-card-pad">
        Providers
        <button
          type="button"
          className="btn btn-primary btn-sm card-title-link"
          onClick={() => setOpen({ kind: 'add' })}
        >
          + Add provider
        </button>
      </div>
      <DataTable
        testId="providers-table"
        columns={providerColumns(configPath, {
          onEdit: (provider) => setOpen({ kind: 'edit', provider }),
          onDelete: (provider) => setOpen({ kind: 'delete', provider }),
        })}
        rows={providers}
        rowKey={(provider) => provider.id}
        rowLabel={(provider) => provider.id}
      />
      <p className="small muted table-card-pad">
        Changes apply at once and are kept in the database over the config file. A test sends one one-token request (on
        a route of the provider, or its test model) and does not affect the circuit breaker; saving a provider with a
        base URL tests it once.
      </p>
      {(open?.kind === 'add' || open?.kind === 'edit') && (
        <ProviderFormDialog editing={open.kind === 'edit' ? open.provider : undefined} types={types} onClose={close} />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title={`Remove provider ${open.provider.id}?`}
          confirmLabel="Remove provider"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(open.provider.id, { onSuccess: close })}
          onClose={close}
        >
          <p>
            The gateway stops calling <span className="mono">{open.provider.id}</span> at once.
            {open.provider.routes.length > 0 &&
              ` Its routes (${open.provider.routes.join(', ')}) must be deleted or moved first.`}
          </p>
          {open.provider.in_config && (
            <p className="small muted">
              It comes from the config file: it stays hidden after a restart until you restore it here.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
