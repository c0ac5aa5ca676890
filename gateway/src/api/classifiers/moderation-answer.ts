import type { ModerationVerdict } from '../../providers/contracts/moderation.js';

/** Mistral's names for the local classifier's categories (OpenAI's); names already Mistral's pass unchanged. */
const MISTRAL_CATEGORY: Readonly<Record<string, string>> = {
  sexual: 'sexual',
  hate: 'hate_and_discrimination',
  harassment: 'hate_and_discrimination',
  violence: 'violence_and_threats',
  illicit: 'dangerous_and_criminal_content',
  'self-harm': 'selfharm',
};

/** A model name from Mistral's catalogue (`mistral-moderation-latest`): its client reads Mistral's category names. */
export function asksForMistralNames(model: string | undefined): boolean {
  return model?.startsWith('mistral-') ?? false;
}

function inMistralNames(verdict: ModerationVerdict): ModerationVerdict {
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  for (const [name, score] of Object.entries(verdict.category_scores)) {
    const renamed = MISTRAL_CATEGORY[name] ?? name;
    scores[renamed] = Math.max(scores[renamed] ?? 0, score);
  }
  for (const [name, flag] of Object.entries(verdict.categories)) {
    const renamed = MISTRAL_CATEGORY[name] ?? name;
    categories[renamed] = (categories[renamed] ?? false) || flag;
  }
  return { categories, category_scores: scores, flagged: verdict.flagged };
}

/**
 * One verdict as both SDKs read it: OpenAI's fields (`flagged`, and the input types each category
 * was judged on), which Mistral's client ignores, under Mistral's category names when its model was named.
 */
export function moderationAnswerResult(verdict: ModerationVerdict, mistralNames: boolean) {
  const shaped = mistralNames ? inMistralNames(verdict) : verdict;
  const flagged = shaped.flagged ?? Object.values(shaped.categories).some(Boolean);
  return {
    flagged,
    categories: shaped.categories,
    category_scores: shaped.category_scores,
    ...(mistralNames
      ? {}
      : {
          category_applied_input_types: Object.fromEntries(
            Object.keys(shaped.categories).map((name) => [name, ['text']]),
          ),
        }),
  };
}
