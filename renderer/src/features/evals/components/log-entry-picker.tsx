import { useState } from 'react';
import { DataTable, type Column } from '../../../components/data-table';
import { CellText } from '../../../components/cell-text';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { GatewayError } from '../../../lib/gateway-error';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { useGetLoggedRequests } from '../api/get-logged-requests';
import { useLoggedChats } from '../api/list-logged-chats';
import { BODIES_OFF, rowsFromLoggedRequests } from '../dataset-from-log';
import type { EvalRow } from '../eval-types';

/** Picks logged chat completions; their prompts (and answers, as references) become the rows. */
export function LogEntryPicker({ onRows }: { onRows(rows: EvalRow[]): void }) {
  const chats = useLoggedChats(true);
  const details = useGetLoggedRequests();
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [notes, setNotes] = useState<{ id: string; text: string }[]>([]);
  if (chats.isPending) return <Loading label="Loading the request log…" />;
  if (chats.isError)
    return chats.error instanceof GatewayError && chats.error.status === 403 ? (
      <p className="small muted">
        The request log is the Owner's: sign in with an Owner key to build a dataset from it.
      </p>
    ) : (
      <ErrorNotice error={chats.error} title="The request log could not be loaded" onRetry={() => chats.refetch()} />
    );
  const entries = chats.data.data.filter((e) => e.method === 'POST' && e.status < 400);
  const toggle = (id: string) => {
    const next = new Set(picked);
    if (!next.delete(id)) next.add(id);
    setPicked(next);
  };
  const columns: Column<RequestLogEntry>[] = [
    {
      header: 'Use',
      cell: (e) => (
        <input
          type="checkbox"
          aria-label={`Use request ${e.id}`}
          checked={picked.has(e.id)}
          onChange={() => toggle(e.id)}
        />
      ),
    },
    { header: 'Time', cell: (e) => new Date(e.time).toLocaleTimeString() },
    { header: 'Model', className: 'mono', cell: (e) => <CellText text={e.model ?? ''} className="cell-text-narrow" /> },
    { header: 'Body', cell: (e) => (e.request_body === undefined ? 'not kept' : 'kept') },
  ];
  const use = () =>
    details.mutate([...picked], {
      onSuccess: (full) => {
        const built = rowsFromLoggedRequests(full);
        setNotes(built.notes);
        onRows(built.rows);
      },
    });
  const noBodies = entries.length > 0 && entries.every((e) => e.request_body === undefined);
  return (
    <div className="stack">
      {entries.length === 0 ? (
        <p className="small muted">No successful chat completion in the request log yet.</p>
      ) : (
        <div className="eval-log-list">
          <DataTable
            testId="eval-log-entries"
            columns={columns}
            rows={entries}
            rowKey={(e) => e.id}
            rowLabel={(e) => `${e.model ?? ''} ${e.id}`}
          />
        </div>
      )}
      {noBodies && (
        <div className="notice notice-warn small" role="note" data-testid="log-bodies-off">
          {BODIES_OFF}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn btn-sm" disabled={picked.size === 0 || details.isPending} onClick={use}>
          {details.isPending ? 'Reading…' : `Use ${picked.size} selected`}
        </button>
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => void chats.refetch()}>
          Refresh
        </button>
      </div>
      {details.isError && <ErrorNotice error={details.error} title="The logged requests could not be read" />}
      {notes.length > 0 && (
        <ul className="plain-list small muted" data-testid="log-notes">
          {notes.map((note) => (
            <li key={note.id}>
              <span className="mono">{note.id}</span>: {note.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
