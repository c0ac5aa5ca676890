import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';

/** The whole entries (bodies included, when the log keeps them) of the requests picked for a dataset. */
export const getLoggedRequests = (ids: readonly string[]): Promise<RequestLogEntry[]> =>
  Promise.all(ids.map((id) => getJson<RequestLogEntry>(`/console/requests/${encodeURIComponent(id)}`)));

export const useGetLoggedRequests = () => useMutation({ mutationFn: getLoggedRequests });
