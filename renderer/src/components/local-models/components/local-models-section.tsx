import { formatSize } from '../format-size';
import { useDeleteLocalFile } from '../api/delete-local-file';
import { useDownloads } from '../api/list-downloads';
import { useLocalFiles } from '../api/list-local-files';
import { isActive, type LocalModelFile } from '../local-model-wire';
import { DownloadProgress } from './download-progress';
import { useInstallWatch } from './use-install-watch';
import './local-models.css';
import { CellText } from '../../cell-text';
import { DataTable, type Column } from '../../data-table';

function fileColumns(deletePending: boolean, remove: (name: string) => void): Column<LocalModelFile>[] {
  return [
    { header: 'File', className: 'mono', cell: (file) => <CellText text={file.name} /> },
    { header: 'Model', className: 'mono', cell: (file) => <CellText text={file.model} className="cell-text-narrow" /> },
    { header: 'Size', cell: (file) => formatSize(file.size_bytes) },
    { header: 'Quantization', cell: (file) => file.quantization ?? '—' },
    { header: 'Context', cell: (file) => file.context_length?.toLocaleString() ?? '—' },
    {
      header: 'Loaded',
      cell: (file) =>
        file.loaded ? <span className="badge badge-ok">loaded</span> : <span className="faint">no</span>,
    },
    {
      header: 'Actions',
      headerHidden: true,
      cell: (file) => (
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          disabled={deletePending}
          onClick={() => window.confirm(`Delete ${file.name} from disk?`) && remove(file.name)}
        >
          Delete
        </button>
      ),
    },
  ];
}

/** The Models page's local part: the model files on disk (from their metadata) and the downloads. Owners only. */
export function LocalModelsSection() {
  const files = useLocalFiles();
  const downloads = useDownloads();
  const remove = useDeleteLocalFile();
  useInstallWatch(downloads.data?.data);
  if (files.isError || !files.data) return null;
  const shown = (downloads.data?.data ?? []).filter(
    (download) => isActive(download.status) || download.status === 'paused' || download.status === 'failed',
  );
  return (
    <section className="card table-card local-section" aria-label="Local model files">
      <div className="table-card-pad">
        <h2 className="card-title">Local model files</h2>
        <span className="small faint">
          In the data folder's models/ directory; each is served as the model named here.
        </span>
      </div>
      {files.data.data.length === 0 ? (
        <div className="table-card-pad small faint">
          No local model files yet: download one below, or use a .gguf file already on this computer.
        </div>
      ) : (
        <div className="local-table-wrap">
          <DataTable
            testId="local-files-table"
            columns={fileColumns(remove.isPending, (file) => remove.mutate(file))}
            rows={files.data.data}
            rowKey={(file) => file.name}
            rowLabel={(file) => file.name}
          />
        </div>
      )}
      {shown.length > 0 && (
        <div className="table-card-pad stack">
          <h3 className="card-title">Downloads</h3>
          {shown.map((download) => (
            <div key={download.id} className="local-entry">
              <span className="mono small">
                {download.repo}/{download.file}
              </span>
              <DownloadProgress download={download} />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
