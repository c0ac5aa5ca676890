import type { ReactNode } from 'react';
import type { ModelDownload } from '../local-model-wire';
import { DownloadProgress } from './download-progress';

/**
 * One file the download manager can fetch, in a list: its name and details, then its download's
 * progress while one runs, else the button that starts it.
 */
export function DownloadableEntry({
  name,
  children,
  current,
  action,
  primary = false,
  starting,
  onStart,
}: {
  name: string;
  /** The lines under the name. */
  children: ReactNode;
  current: ModelDownload | undefined;
  action: string;
  primary?: boolean;
  starting: boolean;
  onStart(): void;
}) {
  return (
    <li className="local-entry" aria-label={name}>
      <div className="stack local-entry-text">
        <strong>{name}</strong>
        {children}
      </div>
      {current ? (
        <DownloadProgress download={current} />
      ) : (
        <button
          type="button"
          className={primary ? 'btn btn-primary' : 'btn btn-sm'}
          disabled={starting}
          onClick={onStart}
        >
          {action}
        </button>
      )}
    </li>
  );
}
