import type { DEFAULT_OCR_MODEL as GATEWAY_DEFAULT_OCR_MODEL } from '../../../gateway/src/wire/default-models';

/** The gateway's default OCR model (wire/default-models.ts): the literal type makes tsc fail here if it changes there. */
export const DEFAULT_OCR_MODEL: typeof GATEWAY_DEFAULT_OCR_MODEL = 'svc-ocr-3-2512';
