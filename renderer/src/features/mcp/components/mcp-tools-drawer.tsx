import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { useCallMcpTool, useToolResult } from '../api/call-mcp-tool';
import type { McpServerStatus, McpTool } from '../mcp-types';
import { ToolResultView } from './tool-result-view';

/** Arguments to start from: each property of the tool's schema with an empty value of its type. */
function argumentsSkeleton(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; default?: unknown }>;
  const empty: Record<string, unknown> = { string: '', number: 0, integer: 0, boolean: false, array: [], object: {} };
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        property.default ?? (typeof property.type === 'string' ? (empty[property.type] ?? null) : null),
      ]),
    ),
    null,
    2,
  );
}

/** One tool: what it does, its schema, and a form to call it with arguments. */
function ToolCard({ server, tool }: { server: string; tool: McpTool }) {
  const [args, setArgs] = useState(() => argumentsSkeleton(tool.input_schema));
  const [parseError, setParseError] = useState<string | null>(null);
  const call = useCallMcpTool();
  const result = useToolResult(server, tool.name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || '{}');
    } catch (error) {
      setParseError(`Not JSON: ${(error as Error).message}`);
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      setParseError('The arguments must be a JSON object.');
      return;
    }
    setParseError(null);
    call.mutate({ server, tool: tool.name, args: parsed as Record<string, unknown> });
  };

  return (
    <section className="card mcp-tool" aria-label={`Tool ${tool.name}`}>
      <div className="row">
        <strong className="mono grow">{tool.name}</strong>
        {tool.read_only ? (
          <span className="badge badge-ok">read-only</span>
        ) : (
          <span className="badge badge-warn" title="Not marked read-only by the server: a model's call asks first">
            asks approval
          </span>
        )}
      </div>
      {tool.description && <p className="small muted mcp-tool-description">{tool.description}</p>}
      <details>
        <summary className="small">Input schema</summary>
        <pre className="code-block">{JSON.stringify(tool.input_schema, null, 2)}</pre>
      </details>
      <form className="stack" onSubmit={submit} aria-label={`Try ${tool.name}`}>
        <label className="field">
          <span>Arguments (JSON)</span>
          <textarea
            className="textarea mono"
            rows={Math.min(8, Math.max(2, args.split('\n').length))}
            value={args}
            onChange={(event) => setArgs(event.target.value)}
          />
        </label>
        <div className="row">
          <button type="submit" className="btn btn-primary btn-sm" disabled={call.isPending}>
            {call.isPending ? 'Calling…' : `Call ${tool.name}`}
          </button>
        </div>
      </form>
      {parseError && (
        <div className="notice notice-error" role="alert">
          {parseError}
        </div>
      )}
      {call.isError && <ErrorNotice error={call.error} title="The tool could not be called" />}
      {result && <ToolResultView result={result} />}
    </section>
  );
}

/** A server's tools beside the list, each with a "try it" form; results are shown as text, never as HTML. */
export function McpToolsDrawer({ server, onClose }: { server: McpServerStatus; onClose(): void }) {
  return (
    <Dialog title={`Tools of ${server.id}`} onClose={onClose} drawer>
      <div className="stack">
        {server.skipped_tools && server.skipped_tools.length > 0 && (
          <div className="notice notice-warn">
            <span className="notice-title">Left out: their definitions do not parse</span>
            {server.skipped_tools.map((tool) => (
              <span key={tool.name} className="small cell-wrap">
                <span className="mono">{tool.name}</span>: {tool.reason}
              </span>
            ))}
          </div>
        )}
        {server.tools.length === 0 ? (
          <p className="muted">This server lists no tools.</p>
        ) : (
          server.tools.map((tool) => <ToolCard key={tool.name} server={server.id} tool={tool} />)
        )}
      </div>
    </Dialog>
  );
}
