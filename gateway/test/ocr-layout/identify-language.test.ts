import { describe, expect, it } from 'vitest';
import { identifyLanguage } from '../../src/ocr-layout/identify-language.js';
import { UDHR_LANGUAGES, udhrParagraphs, type UdhrLanguage } from '../support/language-pages.js';

/** What the English model makes of a Latin-script page: the same words without their accents. */
const withoutAccents = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');

describe('the language of recognised text', () => {
  it.each(Object.keys(UDHR_LANGUAGES) as UdhrLanguage[])(
    '%s: told by its words or letters, from a few lines of real text',
    async (language) => {
      const text = (await udhrParagraphs(language)).slice(3, 6).join('\n');
      expect(identifyLanguage(text)).toEqual({ script: UDHR_LANGUAGES[language], language });
    },
  );

  it.each(['fra', 'deu', 'spa', 'ita', 'por', 'pol'] as UdhrLanguage[])(
    '%s read by the English model (accents lost) is still told apart from English',
    async (language) => {
      const text = withoutAccents((await udhrParagraphs(language)).slice(3, 6).join('\n'));
      expect(identifyLanguage(text).language).toBe(language);
    },
  );

  it('a text with too few words to tell says so rather than guess', () => {
    expect(identifyLanguage('Total 42.10')).toEqual({ script: 'Latin', language: undefined });
    expect(identifyLanguage('12 345')).toEqual({ script: undefined, language: undefined });
  });
});
