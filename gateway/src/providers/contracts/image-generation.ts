export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  /** `<width>x<height>` */
  size: string;
  n: number;
  signal: AbortSignal;
}

export interface GeneratedImage {
  data: Buffer;
  mimeType: string;
  revised_prompt?: string;
}

export interface ImageGenerationProvider {
  generate(request: ImageGenerationRequest): Promise<GeneratedImage[]>;
}
