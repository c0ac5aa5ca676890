import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { LongText } from '../../../components/long-text';
import { PageHeader } from '../../../components/page-header';
import { downloadFile } from '../../../lib/download';
import { useMetricsText } from '../api/get-metrics-text';
import { metricsLines } from '../metrics-lines';

/**
 * The gateway's Prometheus metrics as text, read with the signed-in key: /metrics needs an Owner key
 * or the metrics token, which a plain link opened in a new tab would not send.
 */
export function MetricsPage() {
  const metrics = useMetricsText();
  const [filter, setFilter] = useState('');
  const shown = metrics.data ? metricsLines(metrics.data, filter) : '';
  return (
    <div className="page">
      <PageHeader
        title="Metrics"
        description="The gateway's Prometheus metrics, read with your Owner key. Prometheus scrapes GET /metrics with the metrics token (server.metrics_token or GATEWAY_METRICS_TOKEN) as a bearer token."
      >
        <button type="button" className="btn" onClick={() => void metrics.refetch()} disabled={metrics.isFetching}>
          ↻ Refresh
        </button>
        {metrics.data && <CopyButton text={metrics.data} label="Copy all" className="btn" />}
        {metrics.data && (
          <button type="button" className="btn" onClick={() => downloadFile('metrics.txt', metrics.data)}>
            ⇩ Download
          </button>
        )}
      </PageHeader>
      <section className="card stack" aria-label="Prometheus metrics">
        {metrics.isPending ? (
          <Loading label="Reading /metrics…" />
        ) : metrics.isError ? (
          <ErrorNotice error={metrics.error} title="The metrics could not be read" onRetry={() => metrics.refetch()} />
        ) : (
          <>
            <input
              className="input"
              type="search"
              aria-label="Filter metrics by name"
              placeholder="Metric name contains…"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            {shown ? (
              <LongText as="pre" className="code-block" testId="metrics-text" text={shown} />
            ) : (
              <p className="muted small">No metric name contains “{filter}”.</p>
            )}
          </>
        )}
      </section>
    </div>
  );
}
