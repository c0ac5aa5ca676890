import type { CategoryNames, ModerationVerdict } from '../../providers/contracts/moderation.js';

/** Mistral's own endpoint (/v1/chat/moderations), or a model from Mistral's catalogue, reads Mistral's category names. */
export function categoryNamesFor(model: string | undefined, chatEndpoint: boolean): CategoryNames {
  return chatEndpoint || (model?.startsWith('mistral-') ?? false) ? 'mistral' : 'openai';
}

/**
 * One verdict as both SDKs read it: `flagged` (any category, unless the upstream said), and for
 * OpenAI's clients the input types each category was judged on; Mistral's client ignores both.
 */
export function moderationAnswerResult(verdict: ModerationVerdict, names: CategoryNames) {
  const flagged = verdict.flagged ?? Object.values(verdict.categories).some(Boolean);
  return {
    flagged,
    categories: verdict.categories,
    category_scores: verdict.category_scores,
    ...(names === 'openai'
      ? {
          category_applied_input_types: Object.fromEntries(
            Object.keys(verdict.categories).map((name) => [name, ['text']]),
          ),
        }
      : {}),
  };
}
