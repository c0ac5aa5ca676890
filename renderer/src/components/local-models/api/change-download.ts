import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ModelDownload } from '../local-model-wire';
import { downloadsQueryOptions } from './list-downloads';

export type DownloadAction = 'pause' | 'resume' | 'cancel';

/** Pause (POST …/pause), resume (POST …/resume) or cancel (DELETE) a download. */
export const changeDownload = ({ id, action }: { id: string; action: DownloadAction }): Promise<ModelDownload> => {
  const path = `/v1/local-models/downloads/${encodeURIComponent(id)}`;
  return action === 'cancel' ? getJson(path, { method: 'DELETE' }) : getJson(`${path}/${action}`, { method: 'POST' });
};

export function useChangeDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeDownload,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: downloadsQueryOptions().queryKey }),
  });
}
