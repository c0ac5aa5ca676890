import type { OcrBlock, PageLanguage } from './ocr-page.js';

/**
 * The most frequent words of languages written in the Latin script, without their accents: a page read
 * with the English model keeps these (it loses accents, not short words), so they tell a French or
 * Polish page from an English one before it is read again with its own model.
 */
const LATIN_WORDS: Readonly<Record<string, string>> = {
  eng: 'the of and to in is that for it as was with be by on not this are or his from at which have an has all its',
  fra: 'le la les de des et du un une est que qui dans en pour par sur au aux ne pas sont ou il elle son sa ses cette',
  deu: 'der die das und ist nicht zu mit von den dem des ein eine sich auf fur im auch als wird oder werden sind hat jeder',
  spa: 'el la los las de del y que en un una es por para con se su sus al como mas o ni toda ser sin sobre',
  ita: 'il lo la gli le di del della dei delle e che in un una per con non sono al alla ogni suo sua da nel essere',
  por: 'o a os as de do da dos das e que em um uma para com nao por ao se seu sua pelo pela na no ser toda',
  pol: 'i w z na do nie sie jest oraz lub od przez jego ich ze za do tym to dla kazdy prawo jak po ktore',
  nld: 'de het een en van in is dat op te zijn met voor niet aan door of als bij wordt ieder zijn',
  ces: 'a v na se je ze do nebo pro s k jeho ktery jako by byt kazdy pravo pri',
  swe: 'och i att det som en pa ar av for med till den har inte om ett var sin',
  dan: 'og i at det er en til af for med som den har ikke pa de ethvert',
  nor: 'og i at det er en til av for med som den har ikke pa de ethvert',
  fin: 'ja on ei se etta tai kuin mutta jokaisella oikeus han',
  hun: 'a az es hogy nem egy is meg van vagy minden jog',
  ron: 'si in de la cu un o ca pe nu este sau din pentru orice sa',
  tur: 've bir bu da de ile icin her olarak hakki veya',
};

const WORD_SETS = Object.fromEntries(
  Object.entries(LATIN_WORDS).map(([language, words]) => [language, new Set(words.split(' '))]),
);

/** Lower case, accents stripped, letters only. */
const bareWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);

const SCRIPT_PATTERNS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/gu],
  ['Cyrillic', /\p{Script=Cyrillic}/gu],
  ['Greek', /\p{Script=Greek}/gu],
  ['Arabic', /\p{Script=Arabic}/gu],
  ['Hebrew', /\p{Script=Hebrew}/gu],
  ['Han', /\p{Script=Han}/gu],
  ['Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ['Hangul', /\p{Script=Hangul}/gu],
  ['Devanagari', /\p{Script=Devanagari}/gu],
  ['Thai', /\p{Script=Thai}/gu],
];

/** Letters of each script in `text`. */
function scriptCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [script, pattern] of SCRIPT_PATTERNS) {
    const n = text.match(pattern)?.length ?? 0;
    if (n > 0) counts.set(script, n);
  }
  return counts;
}

/** The script most of `text`'s letters are in (kana anywhere make Chinese characters Japanese), or undefined for no letters. */
export function dominantScript(text: string): string | undefined {
  const counts = scriptCounts(text);
  const kana = counts.get('Japanese') ?? 0;
  if (kana > 0 && kana >= 0.05 * (counts.get('Han') ?? 0)) {
    counts.set('Japanese', kana + (counts.get('Han') ?? 0));
    counts.delete('Han');
  }
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best?.[0];
}

/** Fewer frequent words than this and a Latin text's language is not told. */
const MIN_HITS = 3;

/**
 * The language of a text in the Latin script, told by its most frequent words, or undefined when too
 * few of them are found or two languages tie. Works on a reading by the English model (accents lost).
 */
function latinLanguage(text: string): string | undefined {
  const words = bareWords(text);
  const scores = Object.entries(WORD_SETS)
    .map(([language, set]) => ({ language, hits: words.filter((word) => set.has(word)).length }))
    .sort((a, b) => b.hits - a.hits);
  const [first, second] = scores;
  if (first.hits < MIN_HITS || first.hits < 0.1 * words.length) return undefined;
  return second && second.hits >= first.hits * 0.9 ? undefined : first.language;
}

/** Letters only Ukrainian, Belarusian, Bulgarian and Serbian Cyrillic use (Russian has none of them). */
const CYRILLIC_MARKS: [string, RegExp][] = [
  ['ukr', /[іїєґ]/giu],
  ['bel', /[ўі]/giu],
  ['srp', /[ђћџљњј]/giu],
];

/** The language a Cyrillic text is in: Russian unless letters the others use show otherwise. */
function cyrillicLanguage(text: string): string {
  const letters = Math.max(1, text.match(/\p{Script=Cyrillic}/gu)?.length ?? 0);
  for (const [language, marks] of CYRILLIC_MARKS) {
    if ((text.match(marks)?.length ?? 0) >= 0.01 * letters) {
      // Belarusian has ў; a text with і and no ў is Ukrainian.
      if (language === 'bel' && !/ў/iu.test(text)) continue;
      return language;
    }
  }
  // Bulgarian writes ъ inside words and has neither ы nor э.
  if (!/[ыэ]/iu.test(text) && (text.match(/ъ/giu)?.length ?? 0) >= 0.005 * letters) return 'bul';
  return 'rus';
}

/** The script of a text and, where its letters or words tell, its language (Tesseract's codes). */
export interface TextLanguage {
  script: string | undefined;
  language: string | undefined;
}

/**
 * The script and language of recognised text: by its letters' Unicode scripts, then, within the
 * script, by frequent words (Latin), by letters only some languages use (Cyrillic), or kana (Japanese).
 */
export function identifyLanguage(text: string): TextLanguage {
  const script = dominantScript(text);
  switch (script) {
    case 'Latin':
      return { script, language: latinLanguage(text) };
    case 'Cyrillic':
      return { script, language: cyrillicLanguage(text) };
    case 'Greek':
      return { script, language: 'ell' };
    case 'Japanese':
      return { script, language: 'jpn' };
    case 'Han':
      return { script, language: 'chi_sim' };
    case 'Hangul':
      return { script, language: 'kor' };
    case 'Arabic':
      return { script, language: 'ara' };
    case 'Hebrew':
      return { script, language: 'heb' };
    case 'Thai':
      return { script, language: 'tha' };
    case 'Devanagari':
      return { script, language: 'hin' };
    default:
      return { script, language: undefined };
  }
}

/** Fewer letters than this and a text's language is not told apart from its page's. */
const BLOCK_LETTERS = 20;

/** The language of a piece of a page (a block, a region) where its text shows one other than the page's. */
export function languageApart(text: string, page: PageLanguage): string | undefined {
  if (page.detected === null || (text.match(/\p{L}/gu)?.length ?? 0) < BLOCK_LETTERS) return undefined;
  const { language } = identifyLanguage(text);
  return language !== undefined && language !== page.detected ? language : undefined;
}

/** The blocks, each marked with its language where its text shows one other than the page's (a mixed page). */
export function markBlockLanguages(blocks: OcrBlock[], page: PageLanguage): OcrBlock[] {
  return blocks.map((block) => {
    const language = languageApart(block.text, page);
    return language ? { ...block, language } : block;
  });
}
