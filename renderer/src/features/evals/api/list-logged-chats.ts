import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

/** The request log's recent chat completions (Owner only), without the console's own calls. */
export const listLoggedChats = (): Promise<ListResponse<RequestLogEntry>> =>
  getJson('/console/requests?limit=200&path=%2Fchat%2Fcompletions&exclude_console=true');

export const loggedChatsQueryOptions = () =>
  queryOptions({ queryKey: ['evals', 'logged-chats'], queryFn: listLoggedChats });

const POLL_MS = 3_000;

/** Polled while shown: a request is logged a moment after its answer ended, and new ones keep coming. */
export const useLoggedChats = (enabled: boolean) =>
  useQuery({ ...loggedChatsQueryOptions(), enabled, refetchInterval: enabled ? POLL_MS : false });
