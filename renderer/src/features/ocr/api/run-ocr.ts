import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import { useRefreshModelStates } from '../../../lib/models-query';
import type { OcrRequest, OcrResult } from '../ocr-types';

export { DEFAULT_OCR_MODEL as OCR_MODEL } from '../../../lib/default-models';

export const runOcr = (request: OcrRequest): Promise<OcrResult> => postJson('/v1/ocr', request);

export function useRunOcr() {
  const refreshModels = useRefreshModelStates();
  return useMutation({ mutationFn: runOcr, onSettled: refreshModels });
}
