import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { FormActions } from '../../../components/form-actions';
import { useAddMcpServer } from '../api/add-mcp-server';
import { useEditMcpServer } from '../api/edit-mcp-server';
import type { McpServerInput, McpServerSetting } from '../mcp-types';
import { IdField, TextField } from '../../../components/text-field';

interface Props {
  /** The server to edit; without one the dialog adds a server. */
  editing?: McpServerSetting;
  onClose(): void;
}

type Transport = 'stdio' | 'http';
type Access = 'owners' | 'all' | 'keys';
interface SecretRow {
  name: string;
  value: string;
  /** The gateway has a value under this name (never shown): empty keeps it. */
  stored: boolean;
}

const lines = (text: string) =>
  text
    .split(/\n/)
    .map((line) => line.trim())
    .filter(Boolean);

function accessOf(allowed: McpServerSetting['allowed_keys'] | undefined): Access {
  if (allowed === 'all') return 'all';
  return allowed && allowed.length > 0 ? 'keys' : 'owners';
}

/** Names and write-only values: environment variables of a stdio server, headers of an HTTP one. */
function SecretRows({
  label,
  rows,
  onChange,
  namePlaceholder,
}: {
  label: string;
  rows: SecretRow[];
  onChange(rows: SecretRow[]): void;
  namePlaceholder: string;
}) {
  const change = (index: number, patch: Partial<SecretRow>) =>
    onChange(rows.map((row, place) => (place === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="mcp-secrets">
      <legend className="field-label">{label}</legend>
      {rows.map((row, index) => (
        <div className="row mcp-secret-row" key={index}>
          <input
            className="input mono"
            aria-label={`${label} name ${index + 1}`}
            value={row.name}
            placeholder={namePlaceholder}
            disabled={row.stored}
            onChange={(event) => change(index, { name: event.target.value })}
          />
          <input
            className="input mono grow"
            type="password"
            autoComplete="off"
            aria-label={`${label} value ${index + 1}`}
            value={row.value}
            placeholder={row.stored ? 'set · leave empty to keep it' : 'value'}
            onChange={(event) => change(index, { value: event.target.value })}
          />
          <button
            type="button"
            className="btn btn-sm"
            aria-label={`Remove ${row.name || `${label} ${index + 1}`}`}
            onClick={() => onChange(rows.filter((_, place) => place !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => onChange([...rows, { name: '', value: '', stored: false }])}
      >
        + Add {label === 'Environment' ? 'variable' : 'header'}
      </button>
    </fieldset>
  );
}

/** Add or edit an MCP server: a command the gateway starts (stdio) or a URL (Streamable HTTP), who may use it, its limits. */
export function McpServerFormDialog({ editing, onClose }: Props) {
  const [id, setId] = useState(editing?.id ?? '');
  const [transport, setTransport] = useState<Transport>(editing?.transport ?? 'stdio');
  const [command, setCommand] = useState(editing?.command ?? '');
  const [args, setArgs] = useState((editing?.args ?? []).join('\n'));
  const [cwd, setCwd] = useState(editing?.cwd ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [env, setEnv] = useState<SecretRow[]>(
    (editing?.env_names ?? []).map((name) => ({ name, value: '', stored: true })),
  );
  const [headers, setHeaders] = useState<SecretRow[]>(
    (editing?.header_names ?? []).map((name) => ({ name, value: '', stored: true })),
  );
  const [access, setAccess] = useState<Access>(accessOf(editing?.allowed_keys));
  const [keyIds, setKeyIds] = useState(Array.isArray(editing?.allowed_keys) ? editing.allowed_keys.join('\n') : '');
  const [timeoutS, setTimeoutS] = useState(String((editing?.timeout_ms ?? 60_000) / 1000));
  const [maxChars, setMaxChars] = useState(String(editing?.max_output_chars ?? 100_000));
  const add = useAddMcpServer();
  const edit = useEditMcpServer();
  const save = editing ? edit : add;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const secrets = (rows: SecretRow[]) =>
      Object.fromEntries(rows.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value]));
    const server: McpServerInput = {
      ...(transport === 'stdio'
        ? {
            command: command.trim(),
            args: args.split('\n').filter((arg) => arg.trim() !== ''),
            env: secrets(env),
            ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
          }
        : { url: url.trim(), headers: secrets(headers) }),
      allowed_keys: access === 'all' ? 'all' : access === 'keys' ? lines(keyIds) : [],
      timeout_ms: Math.round(Number(timeoutS) * 1000),
      max_output_chars: Math.round(Number(maxChars)),
    };
    if (editing) edit.mutate({ id: editing.id, server }, { onSuccess: onClose });
    else add.mutate({ id: id.trim(), ...server }, { onSuccess: onClose });
  };

  return (
    <Dialog title={editing ? `Edit MCP server ${editing.id}` : 'Add an MCP server'} onClose={onClose} wide>
      <form className="stack" onSubmit={submit} aria-label={editing ? 'Edit MCP server' : 'New MCP server'}>
        <div className="two-col">
          <IdField label="Server id" value={id} onChange={setId} editing={!!editing} placeholder="files" />
          <div className="field">
            <span>Transport</span>
            <div className="segmented" role="group" aria-label="Transport">
              <button type="button" aria-pressed={transport === 'stdio'} onClick={() => setTransport('stdio')}>
                stdio (a command)
              </button>
              <button type="button" aria-pressed={transport === 'http'} onClick={() => setTransport('http')}>
                HTTP (a URL)
              </button>
            </div>
          </div>
        </div>
        {transport === 'stdio' ? (
          <>
            <TextField label="Command" required value={command} placeholder="npx" onChange={setCommand} />
            <div className="two-col">
              <label className="field">
                <span>Arguments, one per line</span>
                <textarea
                  className="textarea mono"
                  rows={3}
                  value={args}
                  placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/home/me/notes'}
                  onChange={(event) => setArgs(event.target.value)}
                />
              </label>
              <TextField label="Working folder" value={cwd} placeholder="the gateway's" onChange={setCwd} />
            </div>
            <SecretRows label="Environment" rows={env} onChange={setEnv} namePlaceholder="API_TOKEN" />
            <p className="small muted field-note">
              The process gets exactly these variables and PATH, and runs as the gateway&apos;s user. Values are stored
              encrypted and never shown again.
            </p>
          </>
        ) : (
          <>
            <TextField
              label="URL"
              type="url"
              required
              value={url}
              placeholder="https://mcp.example.com/mcp"
              onChange={setUrl}
            />
            <SecretRows label="Headers" rows={headers} onChange={setHeaders} namePlaceholder="Authorization" />
            <p className="small muted field-note">
              Streamable HTTP, or the older HTTP+SSE transport when the server only speaks that. Loopback and private
              addresses only where <span className="mono">server.url_fetch_allow</span> admits them. Header values are
              stored encrypted and never shown again.
            </p>
          </>
        )}
        <div className="two-col">
          <label className="field">
            <span>Who may use it</span>
            <select className="select" value={access} onChange={(event) => setAccess(event.target.value as Access)}>
              <option value="owners">Owners only</option>
              <option value="all">Every key</option>
              <option value="keys">These keys</option>
            </select>
          </label>
          {access === 'keys' && (
            <label className="field">
              <span>Key ids, one per line</span>
              <textarea
                className="textarea mono"
                rows={2}
                value={keyIds}
                placeholder="key_…"
                onChange={(event) => setKeyIds(event.target.value)}
              />
            </label>
          )}
        </div>
        <div className="two-col">
          <label className="field">
            <span>Timeout per call (seconds)</span>
            <input
              className="input"
              type="number"
              min={0.1}
              max={3600}
              step="any"
              required
              value={timeoutS}
              onChange={(event) => setTimeoutS(event.target.value)}
            />
          </label>
          <label className="field">
            <span>Largest result (characters)</span>
            <input
              className="input"
              type="number"
              min={100}
              max={50_000_000}
              required
              value={maxChars}
              onChange={(event) => setMaxChars(event.target.value)}
            />
          </label>
        </div>
        {save.isError && <ErrorNotice error={save.error} title="The MCP server could not be saved" />}
        <FormActions
          submitLabel={editing ? 'Save server' : 'Add server'}
          onCancel={onClose}
          saving={save.isPending}
          disabled={!id.trim()}
        />
      </form>
    </Dialog>
  );
}
