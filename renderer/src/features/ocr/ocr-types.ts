import type { Static } from '@sinclair/typebox';
import type {
  Granularity as GranularitySchema,
  OcrBodyType,
  OcrBox as OcrBoxSchema,
  SpecOcrResultSchema,
} from '../../../../gateway/src/api/ocr/ocr-schemas';

export type { RenderedPage } from '../../../../gateway/src/api/ocr/ocr-schemas';

export type Granularity = Static<typeof GranularitySchema>;

/** [x1, y1, x2, y2] in pixels of the page image, origin top-left (the schema's four numbers). */
export type BBox = [number, number, number, number];

export type OcrBox = Omit<Static<typeof OcrBoxSchema>, 'bbox'> & { bbox: BBox };

type SpecOcrResult = Static<typeof SpecOcrResultSchema>;
export type OcrPage = NonNullable<SpecOcrResult['pages']>[number];

/** A table found on a page (`include_tables`): cell texts, cells with boxes, and its Markdown. */
export type OcrTable = NonNullable<OcrPage['tables']>[number];

/** The inspector's request: SPEC's form, always with boxes and tables. */
export type OcrRequest = Pick<OcrBodyType, 'pages' | 'structured_output' | 'schema'> & {
  model: string;
  image: string;
  return_bboxes: true;
  include_tables: true;
  granularity: Granularity;
  pages?: number[];
};

/** SPEC's result as the inspector asks for it: text, boxes and pages are always there. */
export type OcrResult = Omit<SpecOcrResult, 'text' | 'bboxes' | 'pages'> & {
  text: string;
  bboxes: OcrBox[];
  pages: OcrPage[];
};
