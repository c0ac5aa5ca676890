import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { GatewayModel } from '../../../lib/gateway-types';
import { modelsQueryOptions } from '../../../lib/models-query';
import { modelPath } from '../model-path';

/** The gateway merges `metadata` into what the model already has. */
export const updateModelMetadata = ({
  id,
  metadata,
}: {
  id: string;
  metadata: Record<string, string>;
}): Promise<GatewayModel> => sendJson('PATCH', modelPath(id), { metadata });

export function useUpdateModelMetadata() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateModelMetadata,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey }),
  });
}
