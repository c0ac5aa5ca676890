import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useAccount } from '../../../lib/account-query';
import { formatUptime } from '../../../lib/format';
import type { Health } from '../../../lib/gateway-types';
import { canServe, HEALTH_TONE_CLASS, healthView } from '../../../lib/provider-health';
import { modelsQueryOptions } from '../../../lib/models-query';
import { useEngineQueues } from '../api/get-engine-queues';
import { useRecentTraffic } from '../api/get-recent-requests';
import { useGatewayStatus } from '../api/get-status';
import { minuteBuckets, providersOf, type BreakerView, type ProviderView } from '../status-view';
import type { EngineQueue } from '../engine-queues';
import { TrafficChart } from './traffic-chart';
import { CellText } from '../../../components/cell-text';
import { DataTable, type Column } from '../../../components/data-table';

const STATE_CLASS: Record<string, string> = {
  ready: 'badge-ok',
  closed: 'badge-ok',
  loading: 'badge-warn',
  cold: '',
  half_open: 'badge-warn',
  open: 'badge-error',
  unavailable: 'badge-error',
};

function Breaker({ breaker }: { breaker: BreakerView | undefined }) {
  if (!breaker) return <span className="faint">—</span>;
  return (
    <div className="cell-stack">
      <span className={`badge ${STATE_CLASS[breaker.state] ?? ''}`} data-testid="breaker-state">
        {breaker.state.replace('_', '-')}
      </span>
      {typeof breaker.retry_after_seconds === 'number' && (
        <span className="small muted">retry in {Math.ceil(breaker.retry_after_seconds)} s</span>
      )}
    </div>
  );
}

/** The gateway's one verdict on the provider (the same Settings and Models show). */
function ProviderState({ provider }: { provider: ProviderView }) {
  const health = healthView(provider.health);
  const note = health.note ?? provider.detail;
  return (
    <div className="cell-stack">
      <span className={`badge ${HEALTH_TONE_CLASS[health.tone]}`} data-testid="provider-state">
        {health.label}
      </span>
      {note && (
        <span className="small muted clamp-3" title={note}>
          {note}
        </span>
      )}
    </div>
  );
}

/** A capability's health as one badge; why it cannot serve is on hover and under the badges. */
function CapabilityBadge({ name, health }: { name: string; health: Health }) {
  const view = healthView(health);
  return (
    <span
      className={`badge ${canServe(health) ? 'badge-ok' : HEALTH_TONE_CLASS[view.tone]}`}
      title={view.note}
      data-testid={`capability-${name.toLowerCase()}`}
    >
      {name} {canServe(health) ? 'served' : view.label}
    </span>
  );
}

const QUEUE_COLUMNS: Column<EngineQueue>[] = [
  {
    header: 'Provider',
    className: 'mono',
    cell: (q) => <CellText text={q.provider} className="cell-text-narrow" />,
  },
  { header: 'Queue', className: 'mono', cell: (q) => q.queue },
  { header: 'Waiting', numeric: true, cell: (q) => q.waiting },
  { header: 'Running', numeric: true, cell: (q) => q.running },
];

function EngineQueues() {
  const queues = useEngineQueues();
  if (!queues.data) return null;
  return (
    <section className="card table-card" aria-label="Engine queues">
      <div className="card-title table-card-pad">Engine queues</div>
      <DataTable
        testId="engine-queues"
        columns={QUEUE_COLUMNS}
        rows={queues.data}
        rowKey={(q) => `${q.provider}/${q.queue}`}
        rowLabel={(q) => `${q.provider} ${q.queue}`}
        empty={<p className="muted small table-card-pad">No local engine has a queue right now.</p>}
      />
    </section>
  );
}

const PROVIDER_COLUMNS: Column<ProviderView>[] = [
  {
    header: 'Provider',
    className: 'mono cell-nowrap',
    cell: (p) => <CellText text={p.id} className="cell-text-narrow" />,
  },
  {
    header: 'Type',
    className: 'mono faint cell-nowrap',
    cell: (p) => (
      <>
        {p.type}
        <div className="small">{p.kind === 'upstream' ? 'upstream' : 'local engine'}</div>
      </>
    ),
  },
  { header: 'State', className: 'cell-wrap', cell: (p) => <ProviderState provider={p} /> },
  { header: 'Circuit breaker', cell: (p) => <Breaker breaker={p.breaker} /> },
];

/** The gateway at a glance: version, uptime, instance, each provider and engine with its breaker, loaded models, and recent latency and errors. */
export function StatusPage() {
  const status = useGatewayStatus();
  const models = useQuery({ ...modelsQueryOptions(), refetchInterval: 10_000 });
  const isOwner = useAccount().data?.api_key.role === 'owner';
  const traffic = useRecentTraffic(isOwner);
  const s = status.data;
  const providers = providersOf(status.data);
  const loaded = (models.data?.data ?? []).filter((m) => m.health.state === 'ready' || m.health.state === 'loading');

  return (
    <div className="page">
      <PageHeader
        title="Status"
        description="The gateway, its providers and engines, and how requests fared in the last half hour."
      />
      {status.isPending ? (
        <Loading />
      ) : status.isError ? (
        <ErrorNotice error={status.error} title="The gateway is not answering" onRetry={() => status.refetch()} />
      ) : (
        <section className="stat-grid stat-grid-3" aria-label="Gateway">
          <div className="card stat-card">
            <div className="card-title">Gateway</div>
            <div className="stat-value">
              <span className={`badge ${s?.status === 'ok' ? 'badge-ok' : 'badge-warn'}`}>
                {s?.status === 'ok' ? 'ok' : 'starting'}
              </span>
            </div>
            <div className="small muted">version {s?.version || '—'}</div>
          </div>
          <div className="card stat-card">
            <div className="card-title">Uptime</div>
            <div className="stat-value">{formatUptime(s?.uptime_seconds ?? 0)}</div>
            <div className="small muted mono">{s?.instance_id ? `instance ${s.instance_id}` : 'single instance'}</div>
          </div>
          <div className="card stat-card">
            <div className="card-title">Capabilities</div>
            {/* checks.* say whether a route (local or upstream) can serve the capability now. */}
            <div
              className="row"
              data-testid="capability-checks"
              title="Whether a route (local or upstream) can serve each capability now"
            >
              {s && <CapabilityBadge name="OCR" health={s.capabilities.ocr} />}
              {s && <CapabilityBadge name="Transcription" health={s.capabilities.transcription} />}
            </div>
          </div>
        </section>
      )}
      <section className="card table-card" aria-label="Providers">
        <div className="card-title table-card-pad">Providers and engines</div>
        <DataTable
          testId="providers-table"
          columns={PROVIDER_COLUMNS}
          rows={providers}
          rowKey={(p) => p.id}
          rowLabel={(p) => p.id}
          empty={<p className="muted small table-card-pad">This gateway does not report its providers.</p>}
        />
      </section>
      <section className="card" aria-label="Loaded models">
        <div className="card-title">Loaded models</div>
        {loaded.length === 0 ? (
          <p className="muted small">No model is loaded or loading right now; local models load on first use.</p>
        ) : (
          <div className="row chip-row">
            {loaded.map((m) => (
              <span key={m.id} className="chip mono" title={m.provider}>
                {m.id} · {healthView(m.health).label}
              </span>
            ))}
          </div>
        )}
      </section>
      <EngineQueues />
      <section className="card" aria-label="Traffic">
        <div className="card-title">
          Latency and errors
          {isOwner && (
            <Link className="small card-title-link" to="/metrics">
              Prometheus metrics
            </Link>
          )}
        </div>
        {!isOwner ? (
          <p className="muted small">The traffic chart is drawn from the request log, which only Owners can read.</p>
        ) : traffic.isError ? (
          <ErrorNotice error={traffic.error} title="The request log could not be read" />
        ) : traffic.data ? (
          (() => {
            const buckets = minuteBuckets(traffic.data.data, Date.now());
            return buckets.some((b) => b.requests > 0) ? (
              <TrafficChart buckets={buckets} />
            ) : (
              <p className="muted small" data-testid="traffic-chart">
                No requests in the last {buckets.length} minutes, besides the console&apos;s own.
              </p>
            );
          })()
        ) : (
          <Loading />
        )}
      </section>
    </div>
  );
}
