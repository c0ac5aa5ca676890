import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import { useRefreshModelStates } from '../../../lib/models-query';
import type { AnalyzeImageRequest, ImageAnalysis } from '../images-types';

export const analyzeImage = (request: AnalyzeImageRequest): Promise<ImageAnalysis> =>
  postJson('/v1/vision/analyze', request);

export function useAnalyzeImage() {
  const refreshModels = useRefreshModelStates();
  return useMutation({ mutationFn: analyzeImage, onSettled: refreshModels });
}
