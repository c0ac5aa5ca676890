import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { isForbidden, OwnerRequiredNotice } from '../../../components/owner-required-notice';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { useAccount } from '../../../lib/account-query';
import { useDeleteMcpServer } from '../api/delete-mcp-server';
import { useMcpSettings } from '../api/get-mcp-settings';
import { useMcpServers } from '../../../lib/mcp-servers-query';
import { useResetMcpServer } from '../api/reset-mcp-server';
import type { McpServerSetting, McpServerStatus } from '../mcp-types';
import { McpImportDialog } from './mcp-import-dialog';
import { McpServerFormDialog } from './mcp-server-form-dialog';
import { McpToolsDrawer } from './mcp-tools-drawer';
import './mcp.css';

interface Row {
  setting: McpServerSetting;
  /** Undefined while GET /v1/mcp/servers (which starts the servers) has not answered. */
  status?: McpServerStatus;
}

type Open =
  | { kind: 'add' }
  | { kind: 'import' }
  | { kind: 'edit'; setting: McpServerSetting }
  | { kind: 'delete'; setting: McpServerSetting }
  | { kind: 'tools'; id: string }
  | null;

interface Actions {
  tools(id: string): void;
  edit(setting: McpServerSetting): void;
  remove(setting: McpServerSetting): void;
  reset(id: string): void;
  resetPending: boolean;
}

function access(allowed: McpServerSetting['allowed_keys']): string {
  if (allowed === 'all') return 'every key';
  return allowed.length === 0 ? 'Owners only' : `Owners and ${allowed.length} key${allowed.length === 1 ? '' : 's'}`;
}

function ServerState({ status, removed }: { status?: McpServerStatus; removed: boolean }) {
  if (removed) return <span className="badge">removed</span>;
  if (!status) return <span className="badge badge-warn">starting…</span>;
  const tone = status.state === 'ready' ? 'badge-ok' : status.state === 'failed' ? 'badge-error' : 'badge-warn';
  return (
    <>
      <span className={`badge ${tone}`} data-testid="mcp-state">
        {status.state}
      </span>
      {status.error && (
        <div className="small text-danger clamp-3 mcp-wrap" title={status.error}>
          {status.error}
        </div>
      )}
    </>
  );
}

function columns(actions: Actions): Column<Row>[] {
  return [
    {
      header: 'Id',
      className: 'mono cell-wrap',
      cell: ({ setting }) => (
        <>
          {setting.id}
          <div>
            <span className={`badge source-badge${setting.source === 'console' ? ' badge-accent' : ''}`}>
              {setting.source === 'console' ? 'console' : 'config file'}
            </span>
          </div>
        </>
      ),
    },
    {
      header: 'Runs',
      className: 'mono cell-wrap mcp-runs',
      cell: ({ setting }) => {
        const runs =
          setting.transport === 'stdio' ? [setting.command, ...(setting.args ?? [])].join(' ') : (setting.url ?? '');
        return (
          <>
            <div className="clamp-3" title={runs}>
              <span className="faint">{setting.transport}</span> {runs}
            </div>
            {(setting.env_names.length > 0 || setting.header_names.length > 0) && (
              <div className="faint small">
                {setting.transport === 'stdio' ? 'env' : 'headers'}:{' '}
                {[...setting.env_names, ...setting.header_names].join(', ')}
              </div>
            )}
          </>
        );
      },
    },
    {
      header: 'State',
      className: 'mcp-state-cell',
      cell: ({ setting, status }) => <ServerState status={status} removed={setting.removed} />,
    },
    {
      header: 'Tools',
      numeric: true,
      cell: ({ status }) => (status?.state === 'ready' ? status.tools.length : '–'),
    },
    { header: 'Access', className: 'cell-wrap', cell: ({ setting }) => access(setting.allowed_keys) },
    {
      header: 'Limits',
      className: 'cell-nowrap small',
      cell: ({ setting }) => (
        <>
          {setting.timeout_ms / 1000} s<div className="faint">{setting.max_output_chars.toLocaleString()} chars</div>
        </>
      ),
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: ({ setting, status }) => (
        <RowActions
          actions={
            setting.removed
              ? [
                  {
                    label: 'Restore',
                    name: `Restore ${setting.id}`,
                    disabled: actions.resetPending,
                    onClick: () => actions.reset(setting.id),
                  },
                ]
              : [
                  status?.state === 'ready' && {
                    label: 'Tools',
                    name: `Tools of ${setting.id}`,
                    onClick: () => actions.tools(setting.id),
                  },
                  { label: 'Edit', name: `Edit ${setting.id}`, onClick: () => actions.edit(setting) },
                  setting.source === 'console' &&
                    setting.in_config && {
                      label: 'Reset',
                      name: `Reset ${setting.id}`,
                      disabled: actions.resetPending,
                      onClick: () => actions.reset(setting.id),
                    },
                  {
                    label: 'Remove',
                    name: `Remove ${setting.id}`,
                    danger: true,
                    onClick: () => actions.remove(setting),
                  },
                ]
          }
        />
      ),
    },
  ];
}

function McpContent({ settings }: { settings: McpServerSetting[] }) {
  const [open, setOpen] = useState<Open>(null);
  const servers = useMcpServers();
  const remove = useDeleteMcpServer();
  const reset = useResetMcpServer();
  const close = () => {
    remove.reset();
    setOpen(null);
  };
  const statuses = new Map(servers.data?.data.map((status) => [status.id, status]));
  const rows: Row[] = settings.map((setting) => ({ setting, status: statuses.get(setting.id) }));
  const toolsOf = open?.kind === 'tools' ? statuses.get(open.id) : undefined;
  return (
    <>
      <section className="card table-card" aria-label="MCP servers">
        <div className="card-title table-card-pad">
          <span className="grow">Servers</span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => void servers.refetch()}
            disabled={servers.isFetching}
          >
            {servers.isFetching ? 'Checking…' : 'Refresh'}
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setOpen({ kind: 'import' })}>
            Import mcp.json
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setOpen({ kind: 'add' })}>
            + Add server
          </button>
        </div>
        {servers.isError && (
          <div className="table-card-pad">
            <ErrorNotice error={servers.error} title="The servers' states could not be read" />
          </div>
        )}
        {reset.isError && (
          <div className="table-card-pad">
            <ErrorNotice error={reset.error} title="The server could not be reset" />
          </div>
        )}
        <DataTable
          testId="mcp-servers-table"
          columns={columns({
            tools: (id) => setOpen({ kind: 'tools', id }),
            edit: (setting) => setOpen({ kind: 'edit', setting }),
            remove: (setting) => setOpen({ kind: 'delete', setting }),
            reset: (id) => reset.mutate(id),
            resetPending: reset.isPending,
          })}
          rows={rows}
          rowKey={(row) => row.setting.id}
          rowLabel={(row) => row.setting.id}
          empty={
            <EmptyState icon="⊶" title="No MCP servers yet">
              <span className="small">
                Add a server, import the mcp.json of LM Studio or Claude Desktop, or list them under{' '}
                <span className="mono">mcp_servers:</span> in the config file.
              </span>
            </EmptyState>
          }
        />
        <p className="small muted table-card-pad">
          A stdio server is started by the gateway when first needed, with its own environment and PATH only, as the
          gateway&apos;s user; it is started again when it dies and stopped with the gateway. Tools not marked read-only
          by their server ask for approval before a model may call them.
        </p>
      </section>
      {(open?.kind === 'add' || open?.kind === 'edit') && (
        <McpServerFormDialog editing={open.kind === 'edit' ? open.setting : undefined} onClose={close} />
      )}
      {open?.kind === 'import' && <McpImportDialog onClose={close} />}
      {toolsOf && <McpToolsDrawer server={toolsOf} onClose={close} />}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          title={`Remove MCP server ${open.setting.id}?`}
          confirmLabel="Remove server"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(open.setting.id, { onSuccess: close })}
          onClose={close}
        >
          <p>
            The gateway stops <span className="mono">{open.setting.id}</span> at once; its tools are no longer offered.
          </p>
          {open.setting.in_config && (
            <p className="small muted">
              It comes from the config file: it stays removed after a restart until you reset it.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

export function McpPage() {
  const settings = useMcpSettings();
  const account = useAccount();
  const forbidden = isForbidden(settings.error) || account.data?.api_key.role === 'member';
  return (
    <div className="page">
      <PageHeader
        title="MCP servers"
        description="Tools on Model Context Protocol servers: what runs, who may use it, and a tool tried by hand."
      />
      {forbidden ? (
        <OwnerRequiredNotice what="Managing MCP servers" error={settings.error} />
      ) : settings.isPending ? (
        <Loading label="Loading MCP servers…" />
      ) : settings.isError ? (
        <ErrorNotice
          error={settings.error}
          title="The MCP servers could not be loaded"
          onRetry={() => settings.refetch()}
        />
      ) : (
        <McpContent settings={settings.data.data} />
      )}
    </div>
  );
}
