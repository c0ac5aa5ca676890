import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { GenerateImagesRequest, GenerateImagesResponse } from '../images-types';
import { imageFilesQueryOptions } from './list-image-files';

export const generateImages = (request: GenerateImagesRequest): Promise<GenerateImagesResponse> =>
  postJson('/v1/vision/generate', request);

export function useGenerateImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateImages,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageFilesQueryOptions().queryKey }),
  });
}
