import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAccount } from '../../../lib/account-query';
import { errorMessage } from '../../../lib/gateway-error';
import { formatCount } from '../../../lib/format';
import { useMcpServers } from '../../../lib/mcp-servers-query';
import type { ChatSettings, McpApproval } from '../chat-types';

interface Props {
  selected: string[];
  approval: McpApproval;
  onChange(patch: Pick<ChatSettings, 'mcpServers'> | Pick<ChatSettings, 'mcpApproval'>): void;
}

const toggled = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((s) => s !== id));

/**
 * The MCP servers whose tools the model may call in this chat. The list is read only once asked
 * for (or when the chat already uses servers): listing them starts every stdio server.
 */
export function McpServerPicker({ selected, approval, onChange }: Props) {
  const [asked, setAsked] = useState(false);
  const servers = useMcpServers(asked || selected.length > 0);
  const isMember = useAccount().data?.api_key.role === 'member';

  if (!asked && selected.length === 0)
    return (
      <fieldset className="stack mcp-picker">
        <legend>MCP tools</legend>
        <span className="small muted">Let the model call tools on the gateway&apos;s MCP servers.</span>
        <button type="button" className="btn btn-sm" onClick={() => setAsked(true)}>
          Choose MCP servers…
        </button>
      </fieldset>
    );

  const listed = servers.data?.data ?? [];
  const missing = selected.filter((id) => !listed.some((s) => s.id === id));
  return (
    <fieldset className="stack mcp-picker">
      <legend>MCP tools</legend>
      {servers.isPending && <span className="small muted">Starting the MCP servers…</span>}
      {servers.isError && (
        <div className="notice notice-error small" role="alert">
          {errorMessage(servers.error)}
        </div>
      )}
      {servers.isSuccess && listed.length === 0 && (
        <div className="notice small" data-testid="mcp-picker-empty">
          {isMember ? (
            <>
              <span className="notice-title">No MCP server is open to this key</span>
              <span>An Owner can allow it in a server&apos;s allowed keys on the MCP servers page.</span>
            </>
          ) : (
            <>
              <span className="notice-title">No MCP servers yet</span>
              <span>
                Add one on the <Link to="/mcp">MCP servers</Link> page, then pick it here.
              </span>
            </>
          )}
        </div>
      )}
      {listed.map((server) => (
        <label key={server.id} className="checkbox mcp-picker-server">
          <input
            type="checkbox"
            checked={selected.includes(server.id)}
            onChange={(e) => onChange({ mcpServers: toggled(selected, server.id, e.target.checked) })}
          />
          <span className="mono">{server.id}</span>
          {server.state === 'ready' ? (
            <span className="small muted">{formatCount(server.tools.length, 'tool')}</span>
          ) : (
            <span
              className={`badge ${server.state === 'failed' ? 'badge-error' : 'badge-warn'}`}
              title={server.error ?? undefined}
            >
              {server.state}
            </span>
          )}
        </label>
      ))}
      {servers.isSuccess &&
        missing.map((id) => (
          <label key={id} className="checkbox mcp-picker-server">
            <input type="checkbox" checked onChange={() => onChange({ mcpServers: toggled(selected, id, false) })} />
            <span className="mono">{id}</span>
            <span className="badge badge-error">not configured</span>
          </label>
        ))}
      {selected.length > 0 && (
        <label className="field">
          <span>Ask before a tool runs</span>
          <select
            className="select"
            value={approval}
            onChange={(e) => onChange({ mcpApproval: e.target.value as McpApproval })}
          >
            <option value="server">Unless marked read-only</option>
            <option value="always">Always</option>
            <option value="never">Never</option>
          </select>
        </label>
      )}
    </fieldset>
  );
}
