import { formatSize } from '../format-size';
import { useChangeDownload } from '../api/change-download';
import type { ModelDownload } from '../local-model-wire';

function eta(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return `${seconds} s left`;
  return `${Math.ceil(seconds / 60)} min left`;
}

/** A download's progress bar, figures, and its Pause, Resume and Cancel buttons. */
export function DownloadProgress({ download }: { download: ModelDownload }) {
  const change = useChangeDownload();
  const total = download.bytes_total ?? 0;
  const percent = total > 0 ? Math.min(100, (download.bytes_done / total) * 100) : 0;
  const act = (action: 'pause' | 'resume' | 'cancel') => change.mutate({ id: download.id, action });
  const running = download.status === 'downloading' || download.status === 'queued';
  return (
    <div className="stack local-download" aria-label={`Download of ${download.file}`}>
      <div className="row">
        <div
          className="progress local-progress"
          role="progressbar"
          aria-label={`Progress of ${download.file}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
        >
          <div
            className={download.status === 'failed' ? 'progress-failed' : 'progress-done'}
            style={{ width: `${percent}%` }}
          />
        </div>
        <span className="small" data-testid="download-status">
          {download.status}
        </span>
        <span className="small faint">
          {formatSize(download.bytes_done)} of {formatSize(total)}
          {download.status === 'downloading' &&
            download.bytes_per_second > 0 &&
            ` · ${formatSize(download.bytes_per_second)}/s · ${eta(download.eta_seconds)}`}
        </span>
      </div>
      {download.error && <span className="small local-error">{download.error}</span>}
      <div className="row">
        {running && (
          <button type="button" className="btn btn-sm" disabled={change.isPending} onClick={() => act('pause')}>
            Pause
          </button>
        )}
        {(download.status === 'paused' || download.status === 'failed') && (
          <button type="button" className="btn btn-sm" disabled={change.isPending} onClick={() => act('resume')}>
            Resume
          </button>
        )}
        {download.status !== 'completed' && download.status !== 'cancelled' && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            disabled={change.isPending}
            onClick={() => act('cancel')}
          >
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}
