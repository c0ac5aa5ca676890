import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { gatewayFetch } from '../../../lib/gateway-client';
import { errorMessage, GatewayError } from '../../../lib/gateway-error';
import type { ListResponse } from '../../../lib/gateway-types';
import { readSseJson } from '../../../lib/sse-reader';
import type { RequestLogEntry } from '../../../../../gateway/src/wire/request-log-entry-schema';
import { mergeEntries } from '../request-entry';
import { listRequests, requestsQueryOptions } from './list-requests';

export type LiveState =
  { state: 'connecting' } | { state: 'live' } | { state: 'paused' } | { state: 'error'; message: string };

const RECONNECT_MS = 3_000;

/**
 * Follows /console/requests/stream (fetch + reader, since EventSource cannot send the key) and
 * folds every entry into the list query's cache; on each connection it also merges in the list, for
 * what was served while nobody followed. Reconnects after a dropped connection.
 */
export function useRequestStream(enabled: boolean): LiveState {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<LiveState>({ state: enabled ? 'connecting' : 'paused' });

  useEffect(() => {
    if (!enabled) {
      setLive({ state: 'paused' });
      return;
    }
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const key = requestsQueryOptions().queryKey;
    const connect = async () => {
      setLive({ state: 'connecting' });
      try {
        const response = await gatewayFetch('/console/requests/stream', {
          signal: abort.signal,
          headers: { Accept: 'text/event-stream' },
        });
        if (!response.body) throw new Error('The gateway sent an empty stream.');
        setLive({ state: 'live' });
        // Requests served while the page was closed or the stream was down: the list is cached forever otherwise.
        void listRequests()
          .then((list) => {
            if (!abort.signal.aborted)
              queryClient.setQueryData<ListResponse<RequestLogEntry>>(key, (old) => ({
                object: 'list',
                data: mergeEntries(old?.data ?? [], list.data),
              }));
          })
          .catch(() => undefined);
        for await (const entry of readSseJson<RequestLogEntry>(response.body)) {
          queryClient.setQueryData<ListResponse<RequestLogEntry>>(key, (old) => ({
            object: 'list',
            data: mergeEntries(old?.data ?? [], [entry]),
          }));
        }
        if (!abort.signal.aborted) timer = setTimeout(() => void connect(), RECONNECT_MS);
      } catch (error) {
        if (abort.signal.aborted) return;
        setLive({ state: 'error', message: errorMessage(error) });
        // A refused key or role will not change by retrying.
        if (!(error instanceof GatewayError && error.status >= 400 && error.status < 500)) {
          timer = setTimeout(() => void connect(), RECONNECT_MS);
        }
      }
    };
    void connect();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [enabled, queryClient]);

  return live;
}
