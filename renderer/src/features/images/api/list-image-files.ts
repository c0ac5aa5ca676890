import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse, StoredFile } from '../../../lib/gateway-types';

export const listImageFiles = (): Promise<ListResponse<StoredFile>> => getJson('/v1/files?purpose=image_generation');

export const imageFilesQueryOptions = () =>
  queryOptions({ queryKey: ['files', 'image_generation'], queryFn: listImageFiles });

export const useImageFiles = () => useQuery(imageFilesQueryOptions());
