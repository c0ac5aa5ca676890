import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';
import { formatUnixTime } from '../../../lib/format';
import { useCancelBatch } from '../api/cancel-batch';
import { batchLook, batchProblem, type Batch, type BatchTone } from '../batch-types';
import { BatchOutputDialog } from './batch-output-dialog';

const TONE_CLASS: Record<BatchTone, string> = {
  ok: 'badge-ok',
  warn: 'badge-warn',
  error: 'badge-error',
  active: 'badge-accent',
  neutral: '',
};

function Progress({ batch }: { batch: Batch }) {
  const { total, completed, failed } = batch.request_counts;
  const done = completed + failed;
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <div className="batch-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`Progress of ${batch.id}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="progress-done" style={{ width: `${total ? (completed / total) * 100 : 0}%` }} />
        <div className="progress-failed" style={{ width: `${total ? (failed / total) * 100 : 0}%` }} />
      </div>
      <span className="small muted">
        {done} / {total} · {percent}%{failed ? ` · ${failed} failed` : ''}
      </span>
    </div>
  );
}

interface BatchRowActions {
  cancelPending: boolean;
  view(viewing: { batch: Batch; kind: 'output' | 'errors' }): void;
  cancel(batch: Batch): void;
}

function BatchProgress({ batch: b, view }: { batch: Batch; view: BatchRowActions['view'] }) {
  const failed = b.request_counts.failed;
  return (
    <>
      {b.status === 'failed' && b.request_counts.total === 0 ? null : <Progress batch={b} />}
      {batchProblem(b) && (
        <div className={`small ${b.status === 'failed' ? 'text-danger' : 'muted'}`} data-testid="batch-problem">
          {batchProblem(b)}
        </div>
      )}
      {failed > 0 && b.error_file_id && (
        <div
          className={`small row batch-failed-lines ${batchLook(b).tone === 'error' ? 'text-danger' : 'text-warning'}`}
          data-testid="batch-failed-lines"
        >
          {failed === b.request_counts.total
            ? `Every line failed.`
            : `${failed} of ${b.request_counts.total} lines failed.`}
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => view({ batch: b, kind: 'errors' })}
            aria-label={`Why lines of ${b.id} failed`}
          >
            See why
          </button>
        </div>
      )}
      {b.status === 'cancelled' && !b.output_file_id && !b.error_file_id && (
        <div className="small muted">Cancelled; results finished before the cancel appear here.</div>
      )}
    </>
  );
}

function batchColumns({ cancelPending, view, cancel }: BatchRowActions): Column<Batch>[] {
  return [
    { header: 'Batch', className: 'mono', cell: (b) => b.id },
    { header: 'Endpoint', className: 'mono cell-nowrap', cell: (b) => b.endpoint },
    {
      header: 'Status',
      cell: (b) => (
        <span
          className={`badge badge-wrap ${TONE_CLASS[batchLook(b).tone]}`}
          data-testid="batch-status"
          title={b.errors.data.map((e) => `line ${e.line}: ${e.message}`).join('\n') || undefined}
        >
          {batchLook(b).label}
        </span>
      ),
    },
    { header: 'Progress', className: 'cell-wrap', cell: (b) => <BatchProgress batch={b} view={view} /> },
    { header: 'Created', cell: (b) => formatUnixTime(b.created_at) },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (b) => (
        <RowActions
          actions={[
            b.status === 'in_progress' && {
              label: 'Cancel',
              name: `Cancel ${b.id}`,
              danger: true,
              disabled: cancelPending,
              onClick: () => cancel(b),
            },
            !!b.output_file_id && {
              label: 'Output',
              name: `Output of ${b.id}`,
              onClick: () => view({ batch: b, kind: 'output' }),
            },
            !!b.error_file_id && {
              label: 'Errors',
              name: `Errors of ${b.id}`,
              onClick: () => view({ batch: b, kind: 'errors' }),
            },
          ]}
        />
      ),
    },
  ];
}

export function BatchTable({ batches }: { batches: Batch[] }) {
  const cancel = useCancelBatch();
  const [viewing, setViewing] = useState<{ batch: Batch; kind: 'output' | 'errors' } | null>(null);
  const [cancelling, setCancelling] = useState<Batch | null>(null);
  return (
    <>
      <DataTable
        testId="batches-table"
        columns={batchColumns({ cancelPending: cancel.isPending, view: setViewing, cancel: setCancelling })}
        rows={batches}
        rowKey={(b) => b.id}
        rowLabel={(b) => b.id}
      />
      {cancelling && (
        <ConfirmDialog
          title={`Cancel ${cancelling.id}?`}
          confirmLabel="Cancel batch"
          pending={cancel.isPending}
          error={cancel.error}
          onConfirm={() => cancel.mutate(cancelling.id, { onSuccess: () => setCancelling(null) })}
          onClose={() => {
            cancel.reset();
            setCancelling(null);
          }}
        >
          <p>
            Lines not yet sent will not run. Results of the lines already finished stay available as the batch output.
          </p>
        </ConfirmDialog>
      )}
      {viewing && (
        <BatchOutputDialog
          batchId={viewing.batch.id}
          fileId={(viewing.kind === 'output' ? viewing.batch.output_file_id : viewing.batch.error_file_id) ?? ''}
          kind={viewing.kind}
          onClose={() => setViewing(null)}
        />
      )}
    </>
  );
}
