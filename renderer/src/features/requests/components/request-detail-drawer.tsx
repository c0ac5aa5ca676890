import { CONSOLE_CLIENT, PLAYGROUND_CLIENT, REPLAY_CLIENT } from '../../../lib/console-client';
import { Link, useNavigate } from 'react-router-dom';
import { CopyButton } from '../../../components/copy-button';
import { Dialog } from '../../../components/dialog';
import { Loading } from '../../../components/loading';
import { formatCost } from '../../../lib/format';
import { gatewayUrl } from '../../../lib/gateway-client';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { playgroundFor, prettyBody, requestToCurl } from '../request-view';
import { LongText } from '../../../components/long-text';
import { formatDuration } from '../waterfall-layout';
import { ReplayPanel } from './replay-panel';
import { RequestWaterfall } from './request-waterfall';

interface Props {
  entry: RequestLogEntry;
  /** The whole entry is still being read (another instance's request comes without headers and bodies). */
  loading?: boolean;
  currency: string | undefined;
  onClose(): void;
  /** Opens another logged request (a replay's) in the drawer. */
  onOpenRequest(id: string): void;
  /** Filters the list to the requests of this trace. */
  onShowTrace(traceId: string): void;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="detail-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One logged request: timing, tokens, cost, headers and bodies (secrets already redacted by the gateway). */
export function RequestDetailDrawer({ entry, loading = false, currency, onClose, onOpenRequest, onShowTrace }: Props) {
  const navigate = useNavigate();
  const origin = gatewayUrl('') || window.location.origin;
  const playground = playgroundFor(entry.path);
  const parsedBody = (() => {
    try {
      return entry.request_body ? (JSON.parse(entry.request_body) as unknown) : null;
    } catch {
      return null;
    }
  })();
  const headers = Object.entries(entry.request_headers ?? {});
  const traceId = entry.trace_id;
  return (
    <Dialog title={`${entry.method} ${entry.path}`} onClose={onClose} drawer>
      <div className="row wrap">
        <span
          className={`badge ${entry.status >= 500 ? 'badge-error' : entry.status >= 400 ? 'badge-warn' : 'badge-ok'}`}
        >
          {entry.status}
        </span>
        {entry.client === CONSOLE_CLIENT && <span className="badge">console</span>}
        {entry.client === PLAYGROUND_CLIENT && <span className="badge">console playground</span>}
        {entry.client === REPLAY_CLIENT && <span className="badge">replay</span>}
        <span className="header-spacer" />
        <CopyButton text={requestToCurl(entry, origin)} label="Copy as cURL" />
        {playground && parsedBody !== null && (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => navigate(playground, { state: { requestBody: parsedBody } })}
          >
            Open in playground
          </button>
        )}
      </div>
      {(entry.error_code || entry.error_message) && (
        <div className="notice notice-error request-failure" data-testid="request-failure">
          {/* One block: the notice lays its children out as lines. */}
          <span>
            {entry.status < 400 && <strong>The stream failed after it started. </strong>}
            {entry.error_code && <span className="mono">{entry.error_code}</span>}
            {entry.error_code && entry.error_message && ': '}
            {entry.error_message}
          </span>
        </div>
      )}
      <dl className="detail-grid">
        <Field label="Request id">
          <span className="mono">{entry.id}</span> <CopyButton text={entry.id} label="Copy" />
        </Field>
        <Field label="Time">{new Date(entry.time).toLocaleString()}</Field>
        <Field label="Latency">{entry.latency_ms.toLocaleString()} ms</Field>
        {entry.ttft_ms !== undefined && <Field label="First token">{formatDuration(entry.ttft_ms)}</Field>}
        <Field label="Model">
          <span className="mono">{entry.model ?? '—'}</span>
        </Field>
        <Field label="Key">
          <span className="mono">{entry.key_prefix ?? '—'}</span>
        </Field>
        <Field label="Tokens in / out">
          {entry.prompt_tokens ?? '—'} / {entry.completion_tokens ?? '—'}
        </Field>
        <Field label="Cost">{entry.cost !== null ? formatCost(entry.cost, currency) : '—'}</Field>
        {entry.instance_id && (
          <Field label="Instance">
            <span className="mono">{entry.instance_id}</span>
          </Field>
        )}
      </dl>
      {traceId && (
        <div className="row wrap small">
          <span className="faint">Trace</span>
          <span className="mono">{traceId}</span>
          <CopyButton text={traceId} label="Copy" />
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onShowTrace(traceId)}>
            List the requests of this trace
          </button>
        </div>
      )}
      <section className="stack" aria-label="Timeline">
        <h3 className="card-title">Timeline</h3>
        {loading && entry.spans === undefined ? (
          <Loading label="Reading the request's spans…" />
        ) : (
          <RequestWaterfall key={entry.id} spans={entry.spans} />
        )}
      </section>
      <ReplayPanel key={entry.id} entry={entry} currency={currency} onOpenRequest={onOpenRequest} />
      {headers.length > 0 && (
        <details open>
          <summary className="card-title">Request headers</summary>
          <table className="table">
            <tbody>
              {headers.map(([name, value]) => (
                <tr key={name}>
                  <td className="mono faint">{name}</td>
                  <td className="mono cell-wrap">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <section className="stack">
        <h3 className="card-title">Request body</h3>
        {entry.request_body !== undefined ? (
          <LongText as="pre" className="code-block" testId="request-body" text={prettyBody(entry.request_body)} />
        ) : loading ? (
          <Loading label="Reading the request from the log…" />
        ) : (
          <p className="muted small">
            Bodies are not kept. An Owner can turn on request-log bodies in <Link to="/settings">Settings</Link>.
          </p>
        )}
        <h3 className="card-title">Response body</h3>
        {entry.response_body !== undefined ? (
          <LongText as="pre" className="code-block" testId="response-body" text={prettyBody(entry.response_body)} />
        ) : loading ? null : (
          <p className="muted small">Not kept.</p>
        )}
      </section>
    </Dialog>
  );
}
