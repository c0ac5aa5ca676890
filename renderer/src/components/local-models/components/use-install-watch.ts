import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { modelsQueryOptions } from '../../../lib/models-query';
import type { ModelDownload } from '../local-model-wire';
import { localFilesQueryOptions } from '../api/list-local-files';
import { ocrLanguagesQueryOptions } from '../api/list-ocr-languages';

/** When a download completes, the gateway serves it at once: refresh the model list so pages start using it. */
export function useInstallWatch(downloads: readonly ModelDownload[] | undefined): void {
  const queryClient = useQueryClient();
  const completed = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!downloads) return;
    const now = new Set(downloads.filter((download) => download.status === 'completed').map((download) => download.id));
    const before = completed.current;
    completed.current = now;
    if (before && [...now].some((id) => !before.has(id))) {
      void queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: localFilesQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: ocrLanguagesQueryOptions().queryKey });
    }
  }, [downloads, queryClient]);
}
