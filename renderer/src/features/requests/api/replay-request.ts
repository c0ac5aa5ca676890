import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../lib/account-query';
import { postJson } from '../../../lib/gateway-client';
import type { ReplayAnswer, ReplayRequest } from '../../../../../gateway/src/wire/replay-answer-schema';

export type { ReplayAnswer };

/** Sends a logged request again (to `model` when given); billed to the signed-in key. */
export const replayRequest = (id: string, options: ReplayRequest = {}): Promise<ReplayAnswer> =>
  postJson(`/console/requests/${encodeURIComponent(id)}/replay`, options);

/** One replay; the balance is read again after it, since it was billed. */
export function useReplayRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, model }: { id: string; model?: string }) =>
      replayRequest(id, model !== undefined ? { model } : {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions().queryKey }),
  });
}

/** The same request sent to several models at once, each answer as it comes (or its error). */
export function useCompareModels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, models }: { id: string; models: readonly string[] }) =>
      Promise.allSettled(models.map((model) => replayRequest(id, { model }))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions().queryKey }),
  });
}
