import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { formatCost } from '../../../lib/format';
import { useRequests } from '../api/list-requests';
import { useRequestStream, type LiveState } from '../api/stream-requests';

const statusClass = (status: number) => (status >= 500 ? 'badge-error' : status >= 400 ? 'badge-warn' : 'badge-ok');

function LiveBadge({ live }: { live: LiveState }) {
  if (live.state === 'live') return <span className="badge badge-ok"><span className="dot" /> Live</span>;
  if (live.state === 'paused') return <span className="badge">Paused</span>;
  if (live.state === 'connecting') return <span className="badge badge-warn">Connecting…</span>;
  return <span className="badge badge-error" title={live.message}>Disconnected</span>;
}

export function RequestsPage() {
  const [following, setFollowing] = useState(true);
  const [filter, setFilter] = useState('');
  const requests = useRequests();
  const live = useRequestStream(following && !requests.isError);
  const currency = useAccount().data?.balance.currency;
  const q = filter.trim().toLowerCase();
  const rows = (requests.data?.data ?? []).filter(
    (r) => !q || r.path.toLowerCase().includes(q) || (r.model ?? '').toLowerCase().includes(q) || String(r.status).startsWith(q),
  );

  return (
    <div className="page">
      <PageHeader title="Request log" description="Every request the gateway served, newest first, as it happens.">
        <LiveBadge live={live} />
        <input className="input" style={{ width: 220 }} type="search" aria-label="Filter requests" placeholder="Filter by path, model or status" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <button type="button" className="btn" onClick={() => setFollowing(!following)} aria-pressed={!following}>
          {following ? '❚❚ Pause' : '▶ Follow'}
        </button>
      </PageHeader>
      {live.state === 'error' && <ErrorNotice error={new Error(live.message)} title="The live feed is not connected" />}
      <section className="card" style={{ padding: 0, overflow: 'auto' }} aria-label="Requests">
        {requests.isPending ? (
          <div style={{ padding: 16 }}><Loading /></div>
        ) : requests.isError ? (
          <div style={{ padding: 16 }}><ErrorNotice error={requests.error} title="The request log could not be loaded" onRetry={() => requests.refetch()} /></div>
        ) : rows.length === 0 ? (
          <EmptyState icon="☰" title={q ? 'No request matches the filter' : 'No requests yet'}>
            <span className="small">Requests appear here as soon as the gateway serves them.</span>
          </EmptyState>
        ) : (
          <table className="table" data-testid="request-log">
            <thead>
              <tr>
                <th>Time</th>
                <th>Method</th>
                <th>Path</th>
                <th>Status</th>
                <th>Model</th>
                <th>Key</th>
                <th className="num">Latency</th>
                <th className="num">Tokens in / out</th>
                <th className="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="mono">{new Date(r.time).toLocaleTimeString()}</td>
                  <td className="mono">{r.method}</td>
                  <td className="mono">{r.path}</td>
                  <td><span className={`badge ${statusClass(r.status)}`}>{r.status}</span></td>
                  <td className="mono">{r.model ?? '—'}</td>
                  <td className="mono faint">{r.key_prefix ?? '—'}</td>
                  <td className="num">{Math.round(r.latency_ms)} ms</td>
                  <td className="num">{r.prompt_tokens ?? '—'} / {r.completion_tokens ?? '—'}</td>
                  <td className="num">{r.cost !== null && r.cost !== undefined ? formatCost(r.cost, currency) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
