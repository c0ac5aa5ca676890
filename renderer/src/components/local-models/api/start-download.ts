import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ModelDownload } from '../local-model-wire';
import { downloadsQueryOptions } from './list-downloads';

export const startDownload = (body: { repo: string; file: string; revision?: string }): Promise<ModelDownload> =>
  getJson('/v1/local-models/downloads', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

export function useStartDownload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startDownload,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: downloadsQueryOptions().queryKey }),
  });
}
