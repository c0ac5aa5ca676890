import { queryOptions, useQuery } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { RenderedPage } from '../ocr-types';

export const renderPdfPage = (document: string, page: number): Promise<RenderedPage> =>
  postJson('/v1/ocr/render', { image: document, page });

/** `documentId` stands for the (large) data URL in the cache key. */
export const renderedPageQueryOptions = (documentId: string, document: string, page: number) =>
  queryOptions({
    queryKey: ['ocr', 'render', documentId, page],
    queryFn: () => renderPdfPage(document, page),
    staleTime: Infinity,
  });

export const useRenderedPage = (documentId: string, document: string, page: number, enabled: boolean) =>
  useQuery({ ...renderedPageQueryOptions(documentId, document, page), enabled });
