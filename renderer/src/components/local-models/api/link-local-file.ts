import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { modelsQueryOptions } from '../../../lib/models-query';
import type { LocalModelFile } from '../local-model-wire';
import { localFilesQueryOptions } from './list-local-files';

/** Serves a GGUF file already on the gateway's computer, where it lies (Owner). */
export const linkLocalFile = (path: string): Promise<LocalModelFile> =>
  getJson('/v1/local-models/files', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path }),
  });

export function useLinkLocalFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkLocalFile,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: localFilesQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey });
    },
  });
}
