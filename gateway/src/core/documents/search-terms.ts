const STOPWORDS = new Set(
  'a an and are as at be by did do does for from has have how i in is it its of on or that the this to was were what when where which who whom why will with you your'.split(
    ' ',
  ),
);

/** Crude English stemming: enough for "invoices"/"invoice", "shipped"/"ship", "paying"/"pay". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Lowercase, stemmed content words of a text, for lexical retrieval. */
export function searchTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem);
}
