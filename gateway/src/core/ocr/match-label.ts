import { CURRENCY_TOKENS, GENERIC_TOKENS, labelTokens, synonymGroup } from './label-tokens.js';

/** What a field is called: one synonym group per token of its name. */
export interface FieldLabel {
  tokens: string[];
  groups: Set<string>[];
}

export function fieldLabel(name: string): FieldLabel {
  const tokens = labelTokens(name).filter((t) => t !== 'of' && t !== 'the');
  return { tokens, groups: tokens.map(synonymGroup) };
}

/**
 * How well `text` reads as the label of `field`, 0..1: each name token is matched to at most one label
 * token (exactly: 1, by synonym: 0.8), averaged over the name's tokens (generic ones such as "name"
 * weigh half), minus 0.15 per label word unrelated to the name. Generic tokens alone are not enough
 * unless all of the name matches.
 */
export function labelScore(text: string, field: FieldLabel): number {
  return labelTokensScore(labelTokens(text), field);
}

/** labelScore of a label already split into tokens (labelTokens). */
export function labelTokensScore(label: readonly string[], field: FieldLabel): number {
  if (label.length === 0 || field.groups.length === 0) return 0;
  const used = new Set<number>();
  let total = 0;
  let specific = false;
  const weightOf = (g: number): number => (GENERIC_TOKENS.has(field.tokens[g]) ? 0.5 : 1);
  field.groups.forEach((group, g) => {
    let best = -1;
    let bestScore = 0;
    label.forEach((token, i) => {
      if (used.has(i)) return;
      const score = token === field.tokens[g] ? 1 : group.has(token) ? 0.8 : 0;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best >= 0) {
      used.add(best);
      total += bestScore * weightOf(g);
      if (!GENERIC_TOKENS.has(field.tokens[g])) specific = true;
    }
  });
  if (used.size === 0) return 0;
  if (!specific && used.size < field.groups.length) return 0;
  // Leftover label words of a matched group ("bill *to*", "amount *due*") are part of the phrase.
  const extra = label.filter(
    (token, i) => !used.has(i) && !field.groups.some((g) => g.has(token)) && !CURRENCY_TOKENS.has(token),
  ).length;
  const weight = field.tokens.reduce((sum, t) => sum + (GENERIC_TOKENS.has(t) ? 0.5 : 1), 0);
  return Math.max(0, Math.min(1, total / weight) - 0.15 * extra);
}
