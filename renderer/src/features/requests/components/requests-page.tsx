import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { CONSOLE_CLIENT, PLAYGROUND_CLIENT, REPLAY_CLIENT } from '../../../lib/console-client';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { downloadFile } from '../../../lib/download';
import { formatCost } from '../../../lib/format';
import { useRequestDetail } from '../api/get-request';
import { useRequests, useRequestSearch } from '../api/list-requests';
import { useRequestStream, type LiveState } from '../api/stream-requests';
import {
  EMPTY_FILTER,
  failureText,
  isTraceId,
  matchesRequestFilter,
  requestSearch,
  requestsToCsv,
  type RequestFilter,
  type RequestOrder,
} from '../request-view';
import { formatDuration } from '../waterfall-layout';
import { RequestDetailDrawer } from './request-detail-drawer';
import { CellText } from '../../../components/cell-text';
import { DataTable, type Column } from '../../../components/data-table';

const statusClass = (status: number) => (status >= 500 ? 'badge-error' : status >= 400 ? 'badge-warn' : 'badge-ok');

function LiveBadge({ live }: { live: LiveState }) {
  if (live.state === 'live')
    return (
      <span className="badge badge-ok">
        <span className="dot" /> Live
      </span>
    );
  if (live.state === 'paused') return <span className="badge">Paused</span>;
  if (live.state === 'connecting') return <span className="badge badge-warn">Connecting…</span>;
  return (
    <span className="badge badge-error" title={live.message}>
      Disconnected
    </span>
  );
}

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].sort();

function requestColumns(
  currency: string | undefined,
  order: RequestOrder,
  setOrder: (order: RequestOrder) => void,
): Column<RequestLogEntry>[] {
  return [
    {
      header: 'Time',
      className: 'mono cell-nowrap',
      sort: { active: order === 'time', onSort: () => setOrder('time') },
      cell: (r) => new Date(r.time).toLocaleTimeString(),
    },
    {
      header: 'Request',
      className: 'mono cell-path',
      cell: (r) => (
        <>
          <span className="faint">{r.method}</span> {r.path}
          {r.client === CONSOLE_CLIENT && <span className="badge table-badge">console</span>}
          {r.client === PLAYGROUND_CLIENT && <span className="badge table-badge">playground</span>}
          {r.client === REPLAY_CLIENT && <span className="badge table-badge">replay</span>}
        </>
      ),
    },
    {
      header: 'Status',
      cell: (r) => (
        <div className="cell-stack">
          <span>
            <span className={`badge ${statusClass(r.status)}`}>{r.status}</span>
          </span>
          {(r.error_code || r.error_message) && (
            <CellText text={failureText(r)} className="text-danger small cell-text-narrow" />
          )}
        </div>
      ),
    },
    {
      header: 'Model · key',
      cell: (r) => (
        <div className="cell-stack">
          <CellText text={r.model ?? '—'} className="mono cell-text-narrow" />
          <span className="mono faint small">{r.key_prefix ?? 'no key'}</span>
        </div>
      ),
    },
    {
      header: 'Latency',
      numeric: true,
      sort: { active: order === 'latency', onSort: () => setOrder(order === 'latency' ? 'time' : 'latency') },
      cell: (r) => `${Math.round(r.latency_ms)} ms`,
    },
    {
      header: 'TTFT',
      headerTitle: 'Time to first token (streams)',
      numeric: true,
      cell: (r) => (r.ttft_ms !== undefined ? formatDuration(r.ttft_ms) : <span className="faint">—</span>),
    },
    {
      header: 'Tokens in / out',
      numeric: true,
      cell: (r) => `${r.prompt_tokens ?? '—'} / ${r.completion_tokens ?? '—'}`,
    },
    {
      header: 'Cost',
      numeric: true,
      cell: (r) => (r.cost !== null && r.cost !== undefined ? formatCost(r.cost, currency) : '—'),
    },
  ];
}

export function RequestsPage() {
  const [following, setFollowing] = useState(true);
  const [filter, setFilter] = useState<RequestFilter>(EMPTY_FILTER);
  const [order, setOrder] = useState<RequestOrder>('time');
  const [openId, setOpenId] = useState<string | null>(null);
  const requests = useRequests();
  const live = useRequestStream(following && !requests.isError);
  const currency = useAccount().data?.balance.currency;
  const all = requests.data?.data ?? [];
  // A trace, or the slowest first, is the gateway's answer over its whole log; otherwise the live list.
  const query = requestSearch(filter, order);
  const search = useRequestSearch(query, following);
  // Until the gateway answers, the live list's own matches, in the same order.
  const local = all.filter((r) => matchesRequestFilter(r, filter));
  if (order === 'latency') local.sort((a, b) => b.latency_ms - a.latency_ms);
  const searched = query !== null && (search.data !== undefined || search.isError);
  const rows = searched ? (search.data?.data ?? []) : local;
  const shown = searched ? search : requests;
  const traceTyped = filter.traceId.trim() !== '';
  const hiddenConsole = filter.showConsole ? 0 : all.filter((r) => r.client === CONSOLE_CLIENT).length;
  const detail = useRequestDetail(openId);
  // The list's entry at once; the whole one (another instance's headers and bodies) once it is read.
  const opened = openId ? (detail.data ?? [...all, ...rows].find((r) => r.id === openId)) : undefined;
  const set = (patch: Partial<RequestFilter>) => setFilter({ ...filter, ...patch });
  const filtered = filter.keyPrefix || filter.model || filter.status || filter.path || traceTyped;

  return (
    <div className="page">
      <PageHeader
        title="Request log"
        description="Every request the gateway served, newest first, as it happens; a failed one says why under its status. Open a row for its headers, bodies and cost."
      >
        <LiveBadge live={live} />
        <button type="button" className="btn" onClick={() => setFollowing(!following)} aria-pressed={!following}>
          {following ? '❚❚ Pause' : '▶ Follow'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={rows.length === 0}
          onClick={() =>
            downloadFile(
              `requests-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`,
              requestsToCsv(rows),
              'text/csv',
            )
          }
        >
          Export CSV
        </button>
      </PageHeader>
      <div className="filter-bar" role="group" aria-label="Filters">
        <input
          className="input"
          type="search"
          aria-label="Filter by path"
          placeholder="Path contains…"
          value={filter.path}
          onChange={(e) => set({ path: e.target.value })}
        />
        <select
          className="select"
          aria-label="Filter by status"
          value={filter.status}
          onChange={(e) => set({ status: e.target.value })}
        >
          <option value="">Any status</option>
          <option value="2xx">2xx success</option>
          <option value="4xx">4xx client error</option>
          <option value="5xx">5xx server error</option>
          <option value="499">499 client left</option>
        </select>
        <select
          className="select"
          aria-label="Filter by model"
          value={filter.model}
          onChange={(e) => set({ model: e.target.value })}
        >
          <option value="">Any model</option>
          {distinct(all.map((r) => r.model)).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select
          className="select"
          aria-label="Filter by key"
          value={filter.keyPrefix}
          onChange={(e) => set({ keyPrefix: e.target.value })}
        >
          <option value="">Any key</option>
          {distinct(all.map((r) => r.key_prefix)).map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <input
          className="input mono trace-filter"
          type="search"
          aria-label="Filter by trace id"
          aria-invalid={traceTyped && !isTraceId(filter.traceId)}
          aria-describedby={traceTyped && !isTraceId(filter.traceId) ? 'trace-filter-hint' : undefined}
          placeholder="Trace id…"
          spellCheck={false}
          value={filter.traceId}
          onChange={(e) => set({ traceId: e.target.value })}
        />
        <label className="row small">
          <input
            type="checkbox"
            checked={filter.showConsole}
            onChange={(e) => set({ showConsole: e.target.checked })}
          />
          Show the console&apos;s own requests{hiddenConsole > 0 ? ` (${hiddenConsole} hidden)` : ''}
        </label>
        {filtered && (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setFilter({ ...EMPTY_FILTER, showConsole: filter.showConsole })}
          >
            Clear filters
          </button>
        )}
      </div>
      {traceTyped && !isTraceId(filter.traceId) && (
        <p id="trace-filter-hint" className="small text-danger">
          A trace id is 32 hexadecimal digits (the second part of a traceparent header).
        </p>
      )}
      {order === 'latency' && (
        <p className="small muted" data-testid="order-note">
          Slowest first, over the whole log the gateway keeps in memory.{' '}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOrder('time')}>
            Newest first
          </button>
        </p>
      )}
      {live.state === 'error' && <ErrorNotice error={new Error(live.message)} title="The live feed is not connected" />}
      <section className="card table-card" aria-label="Requests">
        {shown.isPending ? (
          <div className="table-card-pad">
            <Loading />
          </div>
        ) : shown.isError ? (
          <div className="table-card-pad">
            <ErrorNotice
              error={shown.error}
              title="The request log could not be loaded"
              onRetry={() => shown.refetch()}
            />
          </div>
        ) : (
          <DataTable
            testId="request-log"
            columns={requestColumns(currency, order, setOrder)}
            rows={rows}
            rowKey={(r) => r.id}
            rowLabel={(r) => `${r.method} ${r.path} ${r.status}, open details`}
            onOpenRow={(r) => setOpenId(r.id)}
            empty={
              <EmptyState icon="☰" title={filtered ? 'No request matches the filters' : 'No requests yet'}>
                <span className="small">Requests appear here as soon as the gateway serves them.</span>
              </EmptyState>
            }
          />
        )}
      </section>
      {opened && (
        <RequestDetailDrawer
          entry={opened}
          loading={detail.isPending}
          currency={currency}
          onClose={() => setOpenId(null)}
          onOpenRequest={setOpenId}
          onShowTrace={(traceId) => {
            setFilter({ ...EMPTY_FILTER, showConsole: filter.showConsole, traceId });
            setOpenId(null);
          }}
        />
      )}
    </div>
  );
}
