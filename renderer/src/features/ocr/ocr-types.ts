export type Granularity = 'word' | 'line' | 'block';

/** [x1, y1, x2, y2] in pixels of the page image, origin top-left. */
export type BBox = [number, number, number, number];

export interface OcrBox {
  text: string;
  bbox: BBox;
  confidence: number;
  page: number;
}

export interface OcrPage {
  index: number;
  width: number;
  height: number;
  text: string;
  source: 'ocr' | 'text_layer';
}

export interface OcrRequest {
  model: string;
  image: string;
  return_bboxes: true;
  granularity: Granularity;
  pages?: number[];
  structured_output?: boolean;
  schema?: Record<string, unknown>;
}

export interface OcrResult {
  id: string;
  object: 'ocr.result';
  model: string;
  text: string;
  bboxes: OcrBox[];
  pages: OcrPage[];
  structured_data?: Record<string, unknown>;
}

export interface RenderedPage {
  page: number;
  width: number;
  height: number;
  image: string;
}
