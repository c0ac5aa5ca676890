import { ErrorNotice } from '../../../components/error-notice';
import { formatSize } from '../format-size';
import type { Capability } from '../../../lib/gateway-types';
import { useCatalog } from '../api/list-catalog';
import { useDownloads } from '../api/list-downloads';
import { useStartDownload } from '../api/start-download';
import type { CatalogEntry, ModelDownload } from '../local-model-wire';
import { DownloadableEntry } from './downloadable-entry';
import { useInstallWatch } from './use-install-watch';
import './local-models.css';

function latestFor(entry: CatalogEntry, downloads: readonly ModelDownload[]): ModelDownload | undefined {
  return downloads.find(
    (download) => download.repo === entry.repo && download.file === entry.file && download.status !== 'cancelled',
  );
}

/**
 * The first-run offer shown where a page has no model: the catalog's models for `capability` (the
 * whole catalog on the Models page), each with a Download button, then its progress; the page starts
 * working when the download completes. Shown to Owners only (the download manager is theirs).
 */
export function ModelDownloadOffer({ capability }: { capability?: Capability }) {
  const catalog = useCatalog();
  const downloads = useDownloads();
  const start = useStartDownload();
  useInstallWatch(downloads.data?.data);
  if (catalog.isError || !catalog.data) return null;
  const entries = capability
    ? catalog.data.data.filter((entry) => (entry.capabilities as readonly string[]).includes(capability))
    : catalog.data.data;
  if (entries.length === 0) return null;
  const download = (entry: CatalogEntry) => {
    for (const file of entry.files) start.mutate({ repo: entry.repo, file, revision: entry.revision });
  };
  return (
    <section className="card stack local-offer" aria-label="Download a local model">
      <div>
        <h2 className="card-title">{capability ? 'Download a model to run on this computer' : 'Models to download'}</h2>
        <span className="small faint">
          Small models from Hugging Face that run on a laptop CPU, checked against the hub's SHA-256. Each is served as
          soon as its download completes.
        </span>
      </div>
      {start.isError && <ErrorNotice error={start.error} title="The download could not start" />}
      <ul className="local-catalog">
        {entries.map((entry) => {
          const current = latestFor(entry, downloads.data?.data ?? []);
          return (
            <DownloadableEntry
              key={entry.id}
              name={entry.name}
              current={current}
              action="Download"
              primary
              starting={start.isPending}
              onStart={() => download(entry)}
            >
              <span className="small">{entry.description}</span>
              <span className="small faint">
                {formatSize(entry.size_bytes)} · needs about {formatSize(entry.ram_bytes)} of memory · {entry.licence} ·{' '}
                <span className="mono">{entry.repo}</span>
              </span>
            </DownloadableEntry>
          );
        })}
      </ul>
    </section>
  );
}
