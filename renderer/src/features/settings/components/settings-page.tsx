import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { isForbidden, OwnerRequiredNotice } from '../../../components/owner-required-notice';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { useDeleteRoute } from '../api/delete-route';
import { useSettings } from '../api/get-settings';
import { useResetRoute } from '../api/reset-route';
import type { RouteSetting, Settings } from '../settings-types';
import { ProvidersSection } from './providers-section';
import { RouteFormDialog } from './route-form-dialog';
import { entrySourceLabel } from '../file-source-label';
import { ServerSection } from './server-section';
import { AliasList } from '../../../components/alias-list';
import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';

type Open = { kind: 'add' } | { kind: 'edit'; route: RouteSetting } | { kind: 'delete'; route: RouteSetting } | null;

interface RouteActions {
  edit(route: RouteSetting): void;
  remove(route: RouteSetting): void;
  reset(route: RouteSetting): void;
  resetPending: boolean;
}

function routeColumns(configPath: string | null, actions: RouteActions): Column<RouteSetting>[] {
  return [
    {
      header: 'Model',
      className: 'mono cell-wrap',
      cell: (route) => (
        <>
          {route.id}
          <AliasList aliases={route.aliases ?? []} />
        </>
      ),
    },
    {
      header: 'Provider · upstream',
      className: 'mono cell-wrap',
      cell: (route) => (
        <>
          {route.deployments ? route.deployments.map((deployment) => deployment.provider).join(', ') : route.provider}
          <div className="faint small">
            {route.deployments
              ? `${route.deployments.length} deployments · ${route.routing_strategy ?? 'weighted'}`
              : (route.upstream_model ?? route.id)}
          </div>
        </>
      ),
    },
    { header: 'Capabilities', className: 'cell-wrap', cell: (route) => route.capabilities.join(', ') },
    {
      header: 'Source',
      cell: (route) => (
        <span className={`badge${route.source === 'console' ? ' badge-accent' : ''}`}>
          {entrySourceLabel(route, configPath)}
        </span>
      ),
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (route) => (
        <RowActions
          actions={[
            { label: 'Edit', name: `Edit ${route.id}`, onClick: () => actions.edit(route) },
            route.source === 'console' &&
              route.in_config && {
                label: 'Reset',
                name: `Reset ${route.id}`,
                disabled: actions.resetPending,
                onClick: () => actions.reset(route),
              },
            { label: 'Delete', name: `Delete ${route.id}`, danger: true, onClick: () => actions.remove(route) },
          ]}
        />
      ),
    },
  ];
}

function SettingsContent({ settings }: { settings: Settings }) {
  const [open, setOpen] = useState<Open>(null);
  const remove = useDeleteRoute();
  const reset = useResetRoute();
  const close = () => {
    remove.reset();
    setOpen(null);
  };
  return (
    <>
      <ProvidersSection
        providers={settings.providers}
        types={settings.provider_types}
        configPath={settings.server.config_path}
      />
      <section className="card table-card" aria-label="Model routes">
        <div className="card-title table-card-pad">
          Model routes
          <button
            type="button"
            className="btn btn-primary btn-sm card-title-link"
            onClick={() => setOpen({ kind: 'add' })}
          >
            + Add route
          </button>
        </div>
        {reset.isError && (
          <div className="table-card-pad">
            <ErrorNotice error={reset.error} title="The route could not be reset" />
          </div>
        )}
        <DataTable
          testId="routes-table"
          columns={routeColumns(settings.server.config_path, {
            edit: (route) => setOpen({ kind: 'edit', route }),
            remove: (route) => setOpen({ kind: 'delete', route }),
            reset: (route) => reset.mutate(route.id),
            resetPending: reset.isPending,
          })}
          rows={settings.routes}
          rowKey={(route) => route.id}
          rowLabel={(route) => route.id}
        />
        <p className="small muted table-card-pad">
          Changes apply to the next request, without a restart, and are kept in the database over the config file.
        </p>
      </section>
      <ServerSection server={settings.server} />
      {(open?.kind === 'add' || open?.kind === 'edit') && (
        <RouteFormDialog
          editing={open.kind === 'edit' ? open.route : undefined}
          providers={settings.providers.filter((provider) => !provider.removed)}
          onClose={close}
        />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete route ${open.route.id}?`}
          confirmLabel="Delete route"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(open.route.id, { onSuccess: close })}
          onClose={close}
        >
          <p>
            Requests for <span className="mono">{open.route.id}</span> will be refused with 404 at once.
          </p>
          {open.route.in_config && (
            <p className="small muted">
              It comes from the config file: it stays removed after a restart. Add it again to bring it back.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

export function SettingsPage() {
  const settings = useSettings();
  const account = useAccount();
  const forbidden = isForbidden(settings.error) || account.data?.api_key.role === 'member';
  return (
    <div className="page">
      <PageHeader title="Settings" description="Providers, model routes and server settings of this gateway." />
      {forbidden ? (
        <OwnerRequiredNotice what="Changing the gateway's settings" error={settings.error} />
      ) : settings.isPending ? (
        <Loading label="Loading settings…" />
      ) : settings.isError ? (
        <ErrorNotice
          error={settings.error}
          title="The settings could not be loaded"
          onRetry={() => settings.refetch()}
        />
      ) : (
        <SettingsContent settings={settings.data} />
      )}
    </div>
  );
}
