import type { GeneratedImages } from '../../../../gateway/src/api/vision/image-generation-schemas';

export type { AnalyzeImageRequest, ImageAnalysis } from '../../../../gateway/src/api/vision/image-analysis-schemas';
export type {
  GenerateImagesRequest,
  GeneratedImages as GenerateImagesResponse,
} from '../../../../gateway/src/api/vision/image-generation-schemas';
/** What a gallery tile can show: a generated image, or a stored one known only by its URL. */
export type GeneratedImage = Partial<Pick<GeneratedImages['data'][number], 'url' | 'b64_json' | 'revised_prompt'>>;
