import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { gatewayFetch } from '../../../lib/gateway-client';

/** File URLs need the auth header, so images are fetched as blobs rather than put in <img src>. */
export const getFileContent = async (path: string): Promise<Blob> => (await gatewayFetch(path)).blob();

/** Accepts a path or an absolute URL on the gateway; the cache key is the path. */
export function filePath(url: string): string {
  return /^https?:\/\//.test(url) ? new URL(url).pathname : url;
}

export const fileContentQueryOptions = (path: string) =>
  queryOptions({ queryKey: ['files', 'content', path], queryFn: () => getFileContent(path), staleTime: Infinity });

/** An object URL for a gateway file, revoked when the caller unmounts or the file changes. */
export function useFileObjectUrl(path: string | null) {
  const query = useQuery({ ...fileContentQueryOptions(path ?? ''), enabled: !!path });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const next = URL.createObjectURL(query.data);
    setObjectUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [query.data]);
  return { ...query, objectUrl: query.data ? objectUrl : null };
}
