import { useMutation } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { AnalyzeImageRequest, ImageAnalysis } from '../images-types';

export const analyzeImage = (request: AnalyzeImageRequest): Promise<ImageAnalysis> => postJson('/v1/vision/analyze', request);

export const useAnalyzeImage = () => useMutation({ mutationFn: analyzeImage });
