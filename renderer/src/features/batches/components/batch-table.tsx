import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
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

export function BatchTable({ batches }: { batches: Batch[] }) {
  const cancel = useCancelBatch();
  const [viewing, setViewing] = useState<{ batch: Batch; kind: 'output' | 'errors' } | null>(null);
  const [cancelling, setCancelling] = useState<Batch | null>(null);
  return (
    <>
      <table className="table" data-testid="batches-table">
        <thead>
          <tr>
            <th>Batch</th>
            <th>Endpoint</th>
            <th>Status</th>
            <th>Progress</th>
            <th>Created</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {batches.map((b) => {
            const look = batchLook(b);
            const failed = b.request_counts.failed;
            return (
              <tr key={b.id} aria-label={b.id}>
                <td className="mono">{b.id}</td>
                <td className="mono cell-nowrap">{b.endpoint}</td>
                <td>
                  <span
                    className={`badge badge-wrap ${TONE_CLASS[look.tone]}`}
                    data-testid="batch-status"
                    title={b.errors.data.map((e) => `line ${e.line}: ${e.message}`).join('\n') || undefined}
                  >
                    {look.label}
                  </span>
                </td>
                <td className="cell-wrap">
                  {b.status === 'failed' && b.request_counts.total === 0 ? null : <Progress batch={b} />}
                  {batchProblem(b) && (
                    <div
                      className={`small ${b.status === 'failed' ? 'text-danger' : 'muted'}`}
                      data-testid="batch-problem"
                    >
                      {batchProblem(b)}
                    </div>
                  )}
                  {failed > 0 && b.error_file_id && (
                    <div
                      className={`small row batch-failed-lines ${look.tone === 'error' ? 'text-danger' : 'text-warning'}`}
                      data-testid="batch-failed-lines"
                    >
                      {failed === b.request_counts.total
                        ? `Every line failed.`
                        : `${failed} of ${b.request_counts.total} lines failed.`}
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => setViewing({ batch: b, kind: 'errors' })}
                        aria-label={`Why lines of ${b.id} failed`}
                      >
                        See why
                      </button>
                    </div>
                  )}
                  {b.status === 'cancelled' && !b.output_file_id && !b.error_file_id && (
                    <div className="small muted">Cancelled; results finished before the cancel appear here.</div>
                  )}
                </td>
                <td>{formatUnixTime(b.created_at)}</td>
                <td>
                  <div className="table-actions">
                    {b.status === 'in_progress' && (
                      <button
                        type="button"
                        className="btn btn-sm btn-danger"
                        disabled={cancel.isPending}
                        onClick={() => setCancelling(b)}
                        aria-label={`Cancel ${b.id}`}
                      >
                        Cancel
                      </button>
                    )}
                    {b.output_file_id && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => setViewing({ batch: b, kind: 'output' })}
                        aria-label={`Output of ${b.id}`}
                      >
                        Output
                      </button>
                    )}
                    {b.error_file_id && (
                      <button
                        type="button"
                        className="btn btn-sm"
                        onClick={() => setViewing({ batch: b, kind: 'errors' })}
                        aria-label={`Errors of ${b.id}`}
                      >
                        Errors
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
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
