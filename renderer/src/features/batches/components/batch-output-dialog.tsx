import { Dialog } from '../../../components/dialog';
import { ErrorNotice } from '../../../components/error-notice';
import { Loading } from '../../../components/loading';
import { downloadFile } from '../../../lib/download';
import { useFileText } from '../api/get-file-text';
import { failureReasons, parseResultLines, resultText } from '../batch-result-lines';
import type { BatchResultLine } from '../batch-types';
import { CellText } from '../../../components/cell-text';
import { DataTable, type Column } from '../../../components/data-table';

const RESULT_COLUMNS: Column<BatchResultLine>[] = [
  {
    header: 'Custom id',
    className: 'mono',
    cell: (line) => <CellText text={line.custom_id} className="cell-text-narrow" />,
  },
  {
    header: 'Status',
    cell: (line) => (
      <span
        className={`badge ${line.error || (line.response?.status_code ?? 500) >= 400 ? 'badge-error' : 'badge-ok'}`}
      >
        {line.response?.status_code ?? 'error'}
      </span>
    ),
  },
  { header: 'Result', className: 'cell-wrap', cell: resultText },
];

interface Props {
  batchId: string;
  fileId: string;
  kind: 'output' | 'errors';
  onClose(): void;
}

/** A batch's output or error file as a table of custom id, status and answer, with a download. */
export function BatchOutputDialog({ batchId, fileId, kind, onClose }: Props) {
  const file = useFileText(fileId);
  const lines = file.data ? parseResultLines(file.data) : [];
  return (
    <Dialog title={`${kind === 'output' ? 'Output' : 'Errors'} of ${batchId}`} onClose={onClose} wide>
      {file.isPending ? (
        <Loading label="Loading the result file…" />
      ) : file.isError ? (
        <ErrorNotice error={file.error} title="The result file could not be loaded" onRetry={() => file.refetch()} />
      ) : (
        <>
          {kind === 'errors' && lines.length > 0 && (
            <div className="notice notice-error request-failure" data-testid="batch-failure-reasons">
              <div className="notice-title">
                Why {lines.length === 1 ? 'the line' : `the ${lines.length} lines`} failed
              </div>
              <ul className="plain-list">
                {failureReasons(lines).map(({ reason, count }) => (
                  <li key={reason}>
                    {count > 1 && <strong>{count} × </strong>}
                    {reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="table-scroll">
            <DataTable testId="batch-output" columns={RESULT_COLUMNS} rows={lines} rowKey={(line) => line.id} />
          </div>
          <div className="row dialog-actions">
            <button
              type="button"
              className="btn"
              onClick={() => downloadFile(`${batchId}-${kind}.jsonl`, file.data, 'application/jsonl')}
            >
              ⇩ Download JSONL
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
