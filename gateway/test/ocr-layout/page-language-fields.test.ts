import { describe, expect, it } from 'vitest';
import type { OcrPage } from '../../src/ocr-layout/ocr-page.js';
import { pageLanguageFields } from '../../src/ocr-layout/page-language-fields.js';

const page = (language?: OcrPage['language']): OcrPage => ({
  index: 0,
  width: 100,
  height: 100,
  text: '',
  blocks: [],
  source: 'ocr',
  ...(language ? { language } : {}),
});

describe("a page's language in the answer", () => {
  it('a page in a script with no model says so, and what to install', () => {
    const fields = pageLanguageFields(
      page({ read: [], detected: 'rus', script: 'Cyrillic', source: 'detected', missing: 'rus' }),
    );
    expect(fields).toMatchObject({ detected_language: 'rus', detected_script: 'Cyrillic', languages: [] });
    expect(fields.warnings).toEqual([expect.stringMatching(/no OCR model for rus.*not read.*tesseract-ocr-rus/)]);
  });

  it('a page read with another model than its own says which and what to install', () => {
    const fields = pageLanguageFields(
      page({ read: ['eng'], detected: 'chi_sim', script: 'Han', source: 'detected', missing: 'chi_sim' }),
    );
    expect(fields.warnings).toEqual([expect.stringMatching(/read with eng instead.*tesseract-ocr-chi-sim/)]);
  });

  it('a page read in its own language has no warning; a text-layer page has no language fields', () => {
    expect(pageLanguageFields(page({ read: ['fra'], detected: 'fra', script: 'Latin', source: 'detected' }))).toEqual({
      detected_language: 'fra',
      detected_script: 'Latin',
      languages: ['fra'],
    });
    expect(pageLanguageFields(page())).toEqual({});
  });
});
