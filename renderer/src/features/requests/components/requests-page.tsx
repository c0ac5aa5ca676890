import { CONSOLE_CLIENT, PLAYGROUND_CLIENT } from '../../../lib/console-client';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { downloadFile } from '../../../lib/download';
import { formatCost } from '../../../lib/format';
import { useRequestDetail } from '../api/get-request';
import { useRequests } from '../api/list-requests';
import { useRequestStream, type LiveState } from '../api/stream-requests';
import { EMPTY_FILTER, failureText, matchesRequestFilter, requestsToCsv, type RequestFilter } from '../request-view';
import { RequestDetailDrawer } from './request-detail-drawer';
import { CellText } from '../../../components/cell-text';

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

export function RequestsPage() {
  const [following, setFollowing] = useState(true);
  const [filter, setFilter] = useState<RequestFilter>(EMPTY_FILTER);
  const [openId, setOpenId] = useState<string | null>(null);
  const requests = useRequests();
  const live = useRequestStream(following && !requests.isError);
  const currency = useAccount().data?.balance.currency;
  const all = requests.data?.data ?? [];
  const rows = all.filter((r) => matchesRequestFilter(r, filter));
  const hiddenConsole = filter.showConsole ? 0 : all.filter((r) => r.client === CONSOLE_CLIENT).length;
  const detail = useRequestDetail(openId);
  // The list's entry at once; the whole one (another instance's headers and bodies) once it is read.
  const opened = openId ? (detail.data ?? all.find((r) => r.id === openId)) : undefined;
  const set = (patch: Partial<RequestFilter>) => setFilter({ ...filter, ...patch });
  const filtered = filter.keyPrefix || filter.model || filter.status || filter.path;

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
      {live.state === 'error' && <ErrorNotice error={new Error(live.message)} title="The live feed is not connected" />}
      <section className="card table-card" aria-label="Requests">
        {requests.isPending ? (
          <div className="table-card-pad">
            <Loading />
          </div>
        ) : requests.isError ? (
          <div className="table-card-pad">
            <ErrorNotice
              error={requests.error}
              title="The request log could not be loaded"
              onRetry={() => requests.refetch()}
            />
          </div>
        ) : rows.length === 0 ? (
          <EmptyState icon="☰" title={filtered ? 'No request matches the filters' : 'No requests yet'}>
            <span className="small">Requests appear here as soon as the gateway serves them.</span>
          </EmptyState>
        ) : (
          <table className="table" data-testid="request-log">
            <thead>
              <tr>
                <th>Time</th>
                <th>Request</th>
                <th>Status</th>
                <th>Model · key</th>
                <th className="num">Latency</th>
                <th className="num">Tokens in / out</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.id}
                  className="row-link"
                  tabIndex={0}
                  aria-label={`${r.method} ${r.path} ${r.status}, open details`}
                  onClick={() => setOpenId(r.id)}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setOpenId(r.id))}
                >
                  <td className="mono">{new Date(r.time).toLocaleTimeString()}</td>
                  <td className="mono cell-path">
                    <span className="faint">{r.method}</span> {r.path}
                    {r.client === CONSOLE_CLIENT && <span className="badge table-badge">console</span>}
                    {r.client === PLAYGROUND_CLIENT && <span className="badge table-badge">playground</span>}
                  </td>
                  <td>
                    <div className="cell-stack">
                      <span>
                        <span className={`badge ${statusClass(r.status)}`}>{r.status}</span>
                      </span>
                      {(r.error_code || r.error_message) && (
                        <CellText text={failureText(r)} className="text-danger small cell-text-narrow" />
                      )}
                    </div>
                  </td>
                  <td>
                    <div className="cell-stack">
                      <CellText text={r.model ?? '—'} className="mono cell-text-narrow" />
                      <span className="mono faint small">{r.key_prefix ?? 'no key'}</span>
                    </div>
                  </td>
                  <td className="num">{Math.round(r.latency_ms)} ms</td>
                  <td className="num">
                    {r.prompt_tokens ?? '—'} / {r.completion_tokens ?? '—'}
                  </td>
                  <td className="num">
                    {r.cost !== null && r.cost !== undefined ? formatCost(r.cost, currency) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {opened && (
        <RequestDetailDrawer
          entry={opened}
          loading={detail.isPending}
          currency={currency}
          onClose={() => setOpenId(null)}
        />
      )}
    </div>
  );
}
