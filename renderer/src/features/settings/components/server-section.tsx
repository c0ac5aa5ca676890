import { useState, type FormEvent, type ReactNode } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { ErrorNotice } from '../../../components/error-notice';
import { useChangeServer } from '../api/change-server';
import type { ServerSetting, ServerSettingsChange } from '../settings-types';
import { fileSourceLabel } from '../file-source-label';

const splitList = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

type Field = keyof ServerSetting['sources'];

function SourceBadge({
  server,
  field,
  onReset,
  pending,
}: {
  server: ServerSetting;
  field: Field;
  onReset(field: Field): void;
  pending: boolean;
}) {
  const fromConsole = server.sources[field] === 'console';
  return (
    <span className="server-source">
      <span className={`badge${fromConsole ? ' badge-accent' : ''}`} data-testid={`source-${field}`}>
        {fromConsole ? 'set here' : fileSourceLabel(server.config_path)}
      </span>
      {fromConsole && (
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={pending}
          onClick={() => onReset(field)}
          aria-label={`Use the config file's ${field.replaceAll('_', ' ')}`}
        >
          Use config file
        </button>
      )}
    </span>
  );
}

function Row({
  label,
  htmlFor,
  source,
  children,
}: {
  label: string;
  htmlFor?: string;
  source?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="server-row">
      <label className="server-label" htmlFor={htmlFor}>
        {label}
      </label>
      <div className="server-value">{children}</div>
      <div className="server-row-source">{source}</div>
    </div>
  );
}

/** The live server settings (applied without a restart) and the read-only paths. */
export function ServerSection({ server }: { server: ServerSetting }) {
  const [origins, setOrigins] = useState(server.cors_origins.join(', '));
  const [hosts, setHosts] = useState(server.allowed_hosts.join(', '));
  const [bodies, setBodies] = useState(server.request_log_bodies);
  const [retention, setRetention] = useState(String(server.request_log_retention_days));
  const change = useChangeServer();
  const [saved, setSaved] = useState(false);

  const load = (next: ServerSetting) => {
    setOrigins(next.cors_origins.join(', '));
    setHosts(next.allowed_hosts.join(', '));
    setBodies(next.request_log_bodies);
    setRetention(String(next.request_log_retention_days));
  };
  const send = (body: ServerSettingsChange) => {
    setSaved(false);
    change.mutate(body, {
      onSuccess: (next) => {
        load(next);
        setSaved(true);
      },
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: ServerSettingsChange = {};
    if (!sameList(splitList(origins), server.cors_origins)) body.cors_origins = splitList(origins);
    if (!sameList(splitList(hosts), server.allowed_hosts))
      body.allowed_hosts = splitList(hosts).map((host) => host.toLowerCase());
    if (bodies !== server.request_log_bodies) body.request_log_bodies = bodies;
    if (Number(retention) !== server.request_log_retention_days) body.request_log_retention_days = Number(retention);
    send(body);
  };
  const reset = (field: Field) => send({ [field]: null });
  const badge = (field: Field) => (
    <SourceBadge server={server} field={field} onReset={reset} pending={change.isPending} />
  );

  return (
    <section className="card" aria-label="Server">
      <div className="card-title">Server</div>
      <form className="server-form" onSubmit={submit} aria-label="Server settings">
        <Row label="CORS origins" htmlFor="server-cors" source={badge('cors_origins')}>
          <input
            id="server-cors"
            className="input mono"
            value={origins}
            placeholder="none: same origin only (e.g. https://app.example.com, or *)"
            onChange={(e) => setOrigins(e.target.value)}
          />
        </Row>
        <Row label="Allowed hosts" htmlFor="server-hosts" source={badge('allowed_hosts')}>
          <input
            id="server-hosts"
            className="input mono"
            value={hosts}
            placeholder="loopback names only (e.g. gateway.internal)"
            onChange={(e) => setHosts(e.target.value)}
          />
        </Row>
        <Row label="Request-log bodies" htmlFor="server-bodies" source={badge('request_log_bodies')}>
          <label className="checkbox">
            <input id="server-bodies" type="checkbox" checked={bodies} onChange={(e) => setBodies(e.target.checked)} />
            Capture request and response bodies (keys redacted, 4 KiB each)
          </label>
        </Row>
        <Row label="Request-log retention" htmlFor="server-retention" source={badge('request_log_retention_days')}>
          <span className="row server-inline">
            <input
              id="server-retention"
              className="input server-number"
              type="number"
              min={0}
              max={3650}
              step={1}
              required
              value={retention}
              onChange={(e) => setRetention(e.target.value)}
            />
            <span className="muted">days</span>
          </span>
        </Row>
        {change.isError && <ErrorNotice error={change.error} title="The server settings could not be saved" />}
        <div className="row server-actions">
          {saved && !change.isPending && (
            <span className="small muted" role="status">
              Saved · applied without a restart
            </span>
          )}
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>
            {change.isPending ? 'Saving…' : 'Save server settings'}
          </button>
        </div>
      </form>
      <dl className="settings-list server-paths">
        <dt>Data folder</dt>
        <dd className="server-path">
          <span className="mono" data-testid="data-dir">
            {server.data_dir}
          </span>
          <CopyButton text={server.data_dir} label="Copy path" />
        </dd>
        <dt>Config file</dt>
        <dd className="mono">{server.config_path ?? 'none (built-in defaults)'}</dd>
      </dl>
      <p className="small muted">
        The data folder and config file are set when the gateway starts (GATEWAY_DATA_DIR, GATEWAY_CONFIG). The settings
        above are kept in the database over the config file.
      </p>
    </section>
  );
}
