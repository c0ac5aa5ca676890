import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import type { GatewayModel } from '../../../lib/gateway-types';
import type { Agent } from '../agent-types';
import { useDeleteAgent } from '../api/delete-agent';
import { useAgents } from '../api/list-agents';
import { AgentForm } from './agent-form';
import { AgentTryChat } from './agent-try-chat';

function AgentsWorkspace({ models }: { models: GatewayModel[] }) {
  const agents = useAgents();
  const remove = useDeleteAgent();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const list = agents.data?.data ?? [];
  const selected = list.find((a) => a.id === selectedId) ?? null;
  const closeDelete = () => {
    remove.reset();
    setDeleting(null);
  };

  return (
    <div className="agents-layout">
      <section className="card stack" aria-label="Agents">
        <div className="card-title">
          <span className="grow">Agents</span>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              setSelectedId(null);
              setEditing(false);
            }}
          >
            + New
          </button>
        </div>
        {agents.isPending ? (
          <Loading label="Loading agents…" />
        ) : agents.isError ? (
          <ErrorNotice error={agents.error} title="The agents could not be loaded" onRetry={() => agents.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon="⚙" title="No agents yet">
            <span className="small">Create one with the form.</span>
          </EmptyState>
        ) : (
          <ul className="agent-list">
            {list.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className={`agent-item${a.id === selectedId ? ' active' : ''}`}
                  aria-pressed={a.id === selectedId}
                  onClick={() => {
                    setSelectedId(a.id);
                    setEditing(false);
                  }}
                >
                  <strong>{a.name}</strong>
                  <span className="small muted mono">{a.model}</span>
                  {a.description && <span className="small faint">{a.description}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="stack">
        {!selected || editing ? (
          <AgentForm
            key={selected?.id ?? 'new'}
            agent={editing ? selected : null}
            models={models}
            onSaved={(agent) => {
              setSelectedId(agent.id);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <section className="card stack" aria-label="Agent details">
            <div className="card-title">
              <span className="grow">{selected.name}</span>
              <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" className="btn btn-sm btn-danger" onClick={() => setDeleting(selected)}>
                Delete
              </button>
            </div>
            <dl className="agent-facts">
              <dt>Id</dt>
              <dd className="mono">{selected.id}</dd>
              <dt>Model</dt>
              <dd className="mono">{selected.model}</dd>
              {selected.description && (
                <>
                  <dt>Description</dt>
                  <dd>{selected.description}</dd>
                </>
              )}
              <dt>Instructions</dt>
              <dd className="agent-instructions">{selected.instructions ?? <span className="faint">none</span>}</dd>
              <dt>Tools</dt>
              <dd>
                {selected.tools.length ? (
                  selected.tools.map((t) => (
                    <span key={t.type === 'function' ? t.function.name : t.type} className="chip">
                      {t.type === 'function' ? t.function.name : t.type}
                    </span>
                  ))
                ) : (
                  <span className="faint">none</span>
                )}
              </dd>
            </dl>
          </section>
        )}
        {selected && !editing && <AgentTryChat key={selected.id} agent={selected} />}
      </div>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete agent"
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setSelectedId(null);
                closeDelete();
              },
            })
          }
          onClose={closeDelete}
        >
          <p>Clients that name {deleting.id} will get a 404.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

export function AgentsPage() {
  return (
    <div className="page">
      <PageHeader
        title="Agents"
        description="Named model setups with instructions and tools, callable at /v1/agents/completions."
      />
      <ModelGate capability="chat">{(models) => <AgentsWorkspace models={models} />}</ModelGate>
    </div>
  );
}
