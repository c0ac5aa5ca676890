import { DataTable, type Column } from '../../../components/data-table';
import { RowActions } from '../../../components/row-actions';
import { CellText } from '../../../components/cell-text';
import { formatUnixTime } from '../../../lib/format';
import { useCancelRun } from '../api/cancel-run';
import { isRunActive, type EvalRunObject } from '../eval-types';
import { modelResult, percent } from '../run-results';

const STATUS_CLASS: Record<EvalRunObject['status'], string> = {
  queued: 'badge-warn',
  in_progress: 'badge-accent',
  completed: 'badge-ok',
  canceled: '',
  failed: 'badge-error',
};

function RunProgress({ run }: { run: EvalRunObject }) {
  const { total, passed, failed, errored } = run.result_counts;
  const done = passed + failed + errored;
  const width = (n: number) => `${total ? (n / total) * 100 : 0}%`;
  return (
    <div className="batch-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`Progress of ${run.name}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="progress-done" style={{ width: width(passed) }} />
        <div className="progress-failed" style={{ width: width(failed + errored) }} />
      </div>
      <span className="small muted" data-testid="run-progress">
        {done} / {total} graded{errored ? ` · ${errored} errored` : ''}
      </span>
    </div>
  );
}

/** An eval's runs with their progress (polled while they run), pass rate and a cancel. */
export function RunTable({ runs }: { runs: EvalRunObject[] }) {
  const cancel = useCancelRun();
  const columns: Column<EvalRunObject>[] = [
    { header: 'Run', cell: (r) => <CellText text={r.name} /> },
    { header: 'Model', className: 'mono', cell: (r) => modelResult(r).model },
    {
      header: 'Status',
      cell: (r) => (
        <span className={`badge ${STATUS_CLASS[r.status]}`} title={r.error?.message} data-testid="run-status">
          {r.status.replace('_', ' ')}
        </span>
      ),
    },
    { header: 'Progress', className: 'cell-wrap', cell: (r) => <RunProgress run={r} /> },
    {
      header: 'Pass rate',
      numeric: true,
      cell: (r) => {
        const rate = modelResult(r).passRate;
        return rate === null ? '–' : percent(rate);
      },
    },
    { header: 'Created', cell: (r) => formatUnixTime(r.created_at) },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (r) => (
        <RowActions
          actions={[
            isRunActive(r) && {
              label: 'Cancel',
              name: `Cancel ${r.name}`,
              danger: true,
              disabled: cancel.isPending,
              onClick: () => cancel.mutate(r),
            },
          ]}
        />
      ),
    },
  ];
  return <DataTable testId="eval-runs" columns={columns} rows={runs} rowKey={(r) => r.id} rowLabel={(r) => r.name} />;
}
