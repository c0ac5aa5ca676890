export interface GenerateImagesRequest {
  model: string;
  prompt: string;
  size: string;
  n: number;
  response_format: 'url' | 'b64_json';
}

export interface GeneratedImage {
  url?: string;
  b64_json?: string;
  revised_prompt?: string;
}

export interface GenerateImagesResponse {
  id: string;
  object: 'vision.image';
  created: number;
  data: GeneratedImage[];
}

export interface AnalyzeImageRequest {
  model: string;
  image: string;
  prompt: string;
}

export interface ImageAnalysis {
  id: string;
  object: 'vision.analysis';
  model: string;
  analysis: string;
  created: number;
}
