import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { CursorPage, EvalObject } from '../eval-types';

/** The newest 100 evals of the key (an Owner sees all). */
export const listEvals = (): Promise<CursorPage<EvalObject>> => getJson('/v1/evals?limit=100&order=desc');

export const evalsQueryOptions = () => queryOptions({ queryKey: ['evals'], queryFn: listEvals });

export const useEvals = () => useQuery(evalsQueryOptions());
