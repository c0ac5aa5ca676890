/** The model a request names when it names none (and the console's preselection). */
export const DEFAULT_CHAT_MODEL = 'svc-large-3-2512';
export const DEFAULT_OCR_MODEL = 'svc-ocr-3-2512';
export const DEFAULT_VISION_MODEL = 'svc-vision-3-1-2505';
export const DEFAULT_TRANSCRIPTION_MODEL = 'svc-transcribe-1-2507';
