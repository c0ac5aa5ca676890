import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { OcrRequest, OcrResult } from '../ocr-types';

export const OCR_MODEL = 'svc-ocr-3-2512';

export const runOcr = (request: OcrRequest): Promise<OcrResult> => postJson('/v1/ocr', request);

export const useRunOcr = () => useMutation({ mutationFn: runOcr });
