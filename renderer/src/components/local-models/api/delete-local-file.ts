import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { modelsQueryOptions } from '../../../lib/models-query';
import { localFilesQueryOptions } from './list-local-files';
import { ocrLanguagesQueryOptions } from './list-ocr-languages';

export const deleteLocalFile = (name: string): Promise<{ name: string; deleted: boolean }> =>
  getJson(`/v1/local-models/files/${encodeURIComponent(name)}`, { method: 'DELETE' });

export function useDeleteLocalFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLocalFile,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: localFilesQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ocrLanguagesQueryOptions().queryKey });
    },
  });
}
