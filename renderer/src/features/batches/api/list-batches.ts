import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import { isSettling, type Batch } from '../batch-types';

const POLL_MS = 1_000;

export const listBatches = (): Promise<ListResponse<Batch>> => getJson('/v1/batch?limit=100');

export const batchesQueryOptions = () => queryOptions({ queryKey: ['batches'], queryFn: listBatches });

/** Polls while any batch is still validating, running or finalizing. */
export const useBatches = () =>
  useQuery({
    ...batchesQueryOptions(),
    refetchInterval: (query) => (query.state.data?.data.some((b) => isSettling(b)) ? POLL_MS : false),
  });
