import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { OcrRequest, OcrResult } from '../ocr-types';

export { DEFAULT_OCR_MODEL as OCR_MODEL } from '../../../lib/default-models';

export const runOcr = (request: OcrRequest): Promise<OcrResult> => postJson('/v1/ocr', request);

export const useRunOcr = () => useMutation({ mutationFn: runOcr });
