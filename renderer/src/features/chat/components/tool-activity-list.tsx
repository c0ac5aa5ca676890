import { formatMs } from '../../../lib/format';
import type { ToolActivity, ToolCall, ToolCallState } from '../chat-types';

const STATE: Record<ToolCallState, { label: string; badge: string }> = {
  awaiting_approval: { label: 'waiting for approval', badge: 'badge-warn' },
  approved: { label: 'approved', badge: 'badge-accent' },
  denied: { label: 'denied', badge: 'badge-warn' },
  calling: { label: 'running…', badge: 'badge-accent' },
  completed: { label: 'done', badge: 'badge-ok' },
  failed: { label: 'failed', badge: 'badge-error' },
};

/** Arguments as indented JSON when they parse (a model can write anything there). */
function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Text blocks only: what a tool returns is untrusted and is never rendered as HTML. */
function TextBlock({ label, text, error }: { label: string; text: string; error?: boolean }) {
  return (
    <div className="stack tool-call-block">
      <span className="small muted">{label}</span>
      <pre className={`code-block tool-call-text${error ? ' tool-call-error' : ''}`} aria-label={label}>
        {text}
      </pre>
    </div>
  );
}

interface DecisionProps {
  /** Approve and Deny are offered while the answer is the conversation's last and nothing runs. */
  canDecide: boolean;
  onDecide(approvalRequestId: string, approve: boolean): void;
}

function ApprovalPrompt({ call, canDecide, onDecide }: { call: ToolCall } & DecisionProps) {
  return (
    <section className="notice notice-warn tool-approval" aria-label={`Approve ${call.name}`}>
      <span>
        The model wants to run <strong className="mono">{call.name}</strong> on{' '}
        <strong className="mono">{call.server}</strong>. It runs only if you approve.
      </span>
      <TextBlock label="Arguments" text={prettyArguments(call.arguments)} />
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={!canDecide}
          onClick={() => onDecide(call.approvalRequestId ?? call.id, true)}
        >
          Approve
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={!canDecide}
          onClick={() => onDecide(call.approvalRequestId ?? call.id, false)}
        >
          Deny
        </button>
      </div>
    </section>
  );
}

function ToolCallView({ call }: { call: ToolCall }) {
  const state = STATE[call.state];
  return (
    <details className="tool-call" data-state={call.state} aria-label={`Tool call ${call.name}`}>
      <summary>
        <span className="tool-call-icon" aria-hidden>
          ⚙
        </span>
        <span className="mono tool-call-name">
          {call.server} · {call.name}
        </span>
        <span className={`badge ${state.badge}`}>{state.label}</span>
        {call.durationMs !== undefined && <span className="small muted">{formatMs(call.durationMs)}</span>}
      </summary>
      <div className="stack tool-call-body">
        <TextBlock label="Arguments" text={prettyArguments(call.arguments)} />
        {call.output !== undefined && <TextBlock label="Output" text={call.output || '(empty)'} />}
        {call.error && <TextBlock label="Error" text={call.error} error />}
        {call.state === 'denied' && <span className="small muted">You denied this call: it did not run.</span>}
      </div>
    </details>
  );
}

/** The MCP tool calls of an answer, inline and collapsible; a call waiting for approval asks for it. */
export function ToolActivityList({ tools, ...decision }: { tools: ToolActivity[] } & DecisionProps) {
  if (tools.length === 0) return null;
  return (
    <div className="stack tool-activity" aria-label="Tool calls">
      {tools.map((entry) =>
        entry.kind === 'list_failed' ? (
          <div key={entry.id} className="notice notice-error small" role="alert">
            Could not list the tools of <strong className="mono">{entry.server}</strong>: {entry.error}
          </div>
        ) : entry.state === 'awaiting_approval' ? (
          <ApprovalPrompt key={entry.id} call={entry} {...decision} />
        ) : (
          <ToolCallView key={entry.id} call={entry} />
        ),
      )}
    </div>
  );
}
