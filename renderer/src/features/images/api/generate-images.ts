import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import { useRefreshModelStates } from '../../../lib/models-query';
import type { GenerateImagesRequest, GenerateImagesResponse } from '../images-types';
import { imageFilesQueryOptions } from './list-image-files';

export const generateImages = (request: GenerateImagesRequest): Promise<GenerateImagesResponse> =>
  postJson('/v1/vision/generate', request);

export function useGenerateImages() {
  const queryClient = useQueryClient();
  const refreshModels = useRefreshModelStates();
  return useMutation({
    mutationFn: generateImages,
    onSettled: refreshModels,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageFilesQueryOptions().queryKey }),
  });
}
