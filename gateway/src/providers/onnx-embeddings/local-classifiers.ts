import { chatMessageText } from '../_shared/chat-message-text.js';
import { ProviderError } from '../_shared/provider-error.js';
import type { ClassificationProvider, ClassificationScores } from '../contracts/classification.js';
import type { CategoryNames, ClassifierInput, ModerationProvider, ModerationVerdict } from '../contracts/moderation.js';
import {
  classificationScores,
  labelSimilarities,
  moderationScores,
  type LabelVectors,
} from './embedding-classifier.js';
import { MODERATION_EXAMPLES, SAFE_EXAMPLES } from './moderation-examples.js';
import type { SentenceEmbedder } from './sentence-embedder.js';

/** Runs work on the loaded embedding model, in turn with every other inference of the provider. */
export type OnModel = <T>(signal: AbortSignal, work: (model: SentenceEmbedder) => Promise<T>) => Promise<T>;

/** Labels of one classification target, each with its examples or descriptions. */
export type TargetExamples = Readonly<Record<string, string | readonly string[]>>;

const SAFE = 'safe';
const MODERATION_TARGET = 'moderation';
const DEFAULT_THRESHOLD = 0.5;

/** Mistral's names for the categories (several of OpenAI's fall under one of Mistral's). */
const MISTRAL_NAMES: Readonly<Record<string, string>> = {
  sexual: 'sexual',
  hate: 'hate_and_discrimination',
  harassment: 'hate_and_discrimination',
  violence: 'violence_and_threats',
  illicit: 'dangerous_and_criminal_content',
  'self-harm': 'selfharm',
};

function named(verdict: ModerationVerdict, names: CategoryNames | undefined): ModerationVerdict {
  if (names !== 'mistral') return verdict;
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  for (const [category, score] of Object.entries(verdict.category_scores)) {
    const name = MISTRAL_NAMES[category] ?? category;
    scores[name] = Math.max(scores[name] ?? 0, score);
    categories[name] = (categories[name] ?? false) || verdict.categories[category];
  }
  return { categories, category_scores: scores };
}

/** A text cut into pieces the model reads whole: halved at a word boundary until each fits. */
function pieces(model: SentenceEmbedder, text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.length === 0) return [];
  if (model.countTokens(trimmed) <= model.maxTokens) return [trimmed];
  const words = trimmed.split(/\s+/);
  if (words.length < 2) return [trimmed.slice(0, model.maxTokens)];
  const half = Math.ceil(words.length / 2);
  return [...pieces(model, words.slice(0, half).join(' ')), ...pieces(model, words.slice(half).join(' '))];
}

function inputTexts(input: ClassifierInput): string[] {
  return 'texts' in input
    ? input.texts
    : input.conversations.map((messages) => messages.map((message) => chatMessageText(message)).join('\n'));
}

/**
 * Moderation and classification with the built-in sentence embedder: a text is scored by how near
 * it comes to each label's examples (moderation: against ordinary text, MODERATION_EXAMPLES; a
 * classifier: the provider's `classifier_targets`, else the moderation categories as one target).
 * Offline, a few milliseconds a sentence; much weaker than a trained classifier (docs/routing.md).
 */
export function createLocalClassifiers(
  onModel: OnModel,
  options: { threshold?: number; targets?: Readonly<Record<string, TargetExamples>> },
): { moderation: ModerationProvider; classification: ClassificationProvider } {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const moderationLabels: TargetExamples = { ...MODERATION_EXAMPLES, [SAFE]: SAFE_EXAMPLES };
  const targets = options.targets ?? { [MODERATION_TARGET]: moderationLabels };
  const prepared = new Map<TargetExamples, Promise<LabelVectors>>();

  const labelVectors = (model: SentenceEmbedder, labels: TargetExamples): Promise<LabelVectors> => {
    let vectors = prepared.get(labels);
    if (!vectors) {
      vectors = (async () => {
        const result = new Map<string, Float32Array[]>();
        for (const [label, examples] of Object.entries(labels)) {
          const list = typeof examples === 'string' ? [examples] : examples;
          const embedded: Float32Array[] = [];
          for (const example of list) embedded.push((await model.embed(example)).vector);
          result.set(label, embedded);
        }
        return result;
      })();
      vectors.catch(() => prepared.delete(labels));
      prepared.set(labels, vectors);
    }
    return vectors;
  };

  /** Each input's similarities to each label set, and the tokens read. */
  const similarities = (input: ClassifierInput, labelSets: TargetExamples[], signal: AbortSignal) =>
    onModel(signal, async (model) => {
      const sets = await Promise.all(labelSets.map((labels) => labelVectors(model, labels)));
      let tokens = 0;
      const results: Map<string, number>[][] = [];
      for (const text of inputTexts(input)) {
        if (signal.aborted) throw new ProviderError('aborted', 'The request was aborted.');
        const vectors: Float32Array[] = [];
        for (const piece of pieces(model, text)) {
          const { vector, tokens: read } = await model.embed(piece);
          vectors.push(vector);
          tokens += read;
        }
        results.push(sets.map((set) => (vectors.length > 0 ? labelSimilarities(vectors, set) : new Map())));
      }
      return { results, tokens };
    });

  return {
    moderation: {
      async moderate({ input, names, signal }) {
        const { results, tokens } = await similarities(input, [moderationLabels], signal);
        return {
          results: results.map(([found]) => {
            const scores = found.size > 0 ? moderationScores(found, SAFE) : emptyScores();
            const categories = Object.fromEntries(
              Object.entries(scores).map(([name, score]) => [name, score >= threshold]),
            );
            return named({ categories, category_scores: scores }, names);
          }),
          prompt_tokens: tokens,
        };
      },
    },
    classification: {
      async classify({ input, signal }) {
        const names = Object.keys(targets);
        const { results, tokens } = await similarities(input, Object.values(targets), signal);
        return {
          results: results.map((perTarget) => {
            const scores: ClassificationScores = {};
            perTarget.forEach((found, index) => {
              scores[names[index]] = { scores: found.size > 0 ? classificationScores(found) : {} };
            });
            return scores;
          }),
          prompt_tokens: tokens,
        };
      },
    },
  };
}

function emptyScores(): Record<string, number> {
  return Object.fromEntries(Object.keys(MODERATION_EXAMPLES).map((name) => [name, 0]));
}
