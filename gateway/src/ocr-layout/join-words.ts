/** Chinese, Japanese and Korean characters: written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

/**
 * A line's text from its words: a space between two words, except between two Chinese or Japanese
 * characters (Tesseract cuts such a line into "words" where the text has no space).
 */
export function joinWords(words: readonly string[]): string {
  let text = '';
  for (const word of words) {
    if (text !== '' && !(UNSPACED.test(text.at(-1) ?? '') && UNSPACED.test(word[0] ?? ''))) text += ' ';
    text += word;
  }
  return text;
}
