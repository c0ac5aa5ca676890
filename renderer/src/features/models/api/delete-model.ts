import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { modelsQueryOptions } from '../../../lib/models-query';
import { modelPath } from '../model-path';

export const deleteModel = (id: string): Promise<{ id: string; object: 'model'; deleted: boolean }> =>
  getJson(modelPath(id), { method: 'DELETE' });

export function useDeleteModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey }),
  });
}
