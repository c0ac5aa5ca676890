import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ListResponse } from '../../../lib/gateway-types';
import type { OcrLanguage } from '../local-model-wire';

export const fetchOcrLanguages = (): Promise<ListResponse<OcrLanguage>> => getJson('/v1/local-models/ocr-languages');

export const ocrLanguagesQueryOptions = () =>
  queryOptions({ queryKey: ['local-models', 'ocr-languages'], queryFn: fetchOcrLanguages, retry: false });

export const useOcrLanguages = () => useQuery(ocrLanguagesQueryOptions());
