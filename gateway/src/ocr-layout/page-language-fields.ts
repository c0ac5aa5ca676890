import type { PageLanguageFieldValues } from '../wire/ocr-page-language-schema.js';
import type { OcrPage } from './ocr-page.js';

/** The warning for a page whose language has no model installed. */
function missingWarning(missing: string, readWith: string[]): string {
  const read =
    readWith.length > 0 ? `it was read with ${readWith.join('+')} instead` : 'it was not read (no text returned)';
  return `Page looks like ${missing}, but no OCR model for ${missing} is installed: ${read}. Add it in the console (Models → OCR languages, or POST /v1/local-models/downloads {"repo": "tesseract-ocr/tessdata_fast", "file": "${missing}.traineddata"}) or install Debian's tesseract-ocr-${missing.replace('_', '-')} package, or name the page's languages in 'languages'.`;
}

/** The answer's language fields of a recognised page (none for a PDF page read from its text layer). */
export function pageLanguageFields(page: OcrPage): PageLanguageFieldValues {
  const language = page.language;
  if (!language) return {};
  return {
    detected_language: language.detected,
    detected_script: language.script,
    languages: language.read,
    ...(language.missing ? { warnings: [missingWarning(language.missing, language.read)] } : {}),
  };
}
