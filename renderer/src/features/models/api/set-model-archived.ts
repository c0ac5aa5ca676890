import type { ArchiveResult } from '../../../../../gateway/src/api/models/model-schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { modelsQueryOptions } from '../../../lib/models-query';
import { modelPath } from '../model-path';

export type { ArchiveResult };

/** POST …/archive archives, DELETE …/archive unarchives. */
export const setModelArchived = ({ id, archived }: { id: string; archived: boolean }): Promise<ArchiveResult> =>
  getJson(`${modelPath(id)}/archive`, { method: archived ? 'POST' : 'DELETE' });

export function useSetModelArchived() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setModelArchived,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey }),
  });
}
