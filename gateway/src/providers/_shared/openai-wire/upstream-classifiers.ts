import type { ClassificationProvider, ClassificationScores } from '../../contracts/classification.js';
import type { ClassifierInput, ModerationProvider, ModerationVerdict } from '../../contracts/moderation.js';
import { approximateTokens } from '../approximate-tokens.js';
import { chatMessageText } from '../chat-message-text.js';
import type { UpstreamClient } from '../http/upstream-client.js';
import { expectArray, expectRecord, isRecord, malformedResponse, optionalNumber } from '../http/wire-guards.js';

/** An upstream's list of results, one per input, or a malformed-response error. */
async function postForResults(
  client: UpstreamClient,
  path: string,
  body: Record<string, unknown>,
  expected: number,
  signal: AbortSignal,
): Promise<{ results: unknown[]; promptTokens: number | undefined }> {
  const answer = expectRecord(await client.postJson({ path, body: { json: body }, signal }), client.name, 'the answer');
  const results = expectArray(answer.results, client.name, 'results');
  if (results.length !== expected)
    throw malformedResponse(client.name, `${results.length} results for ${expected} inputs`);
  const promptTokens = isRecord(answer.usage) ? optionalNumber(answer.usage.prompt_tokens) : undefined;
  return { results, promptTokens };
}

function inputTexts(input: ClassifierInput): string[] {
  return 'texts' in input
    ? input.texts
    : input.conversations.map((messages) => messages.map(chatMessageText).join('\n'));
}

function verdictOf(value: unknown, providerName: string): ModerationVerdict {
  const record = expectRecord(value, providerName, 'a moderation result');
  const categories = isRecord(record.categories) ? record.categories : {};
  const scores = isRecord(record.category_scores) ? record.category_scores : {};
  return {
    categories: Object.fromEntries(Object.entries(categories).map(([name, flag]) => [name, flag === true])),
    category_scores: Object.fromEntries(Object.entries(scores).map(([name, score]) => [name, Number(score) || 0])),
    ...(typeof record.flagged === 'boolean' ? { flagged: record.flagged } : {}),
  };
}

/**
 * Moderation over `POST <base>/moderations` (OpenAI's and Mistral's shape alike: `{model, input}`).
 * With `chatEndpoint` (Mistral) conversations go to `/chat/moderations` as they are; otherwise each
 * conversation is moderated as the text of its messages.
 */
export function createUpstreamModeration(client: UpstreamClient, chatEndpoint: boolean): ModerationProvider {
  return {
    async moderate({ model, input, signal }) {
      const texts = inputTexts(input);
      const chat = chatEndpoint && 'conversations' in input;
      const { results, promptTokens } = await postForResults(
        client,
        chat ? '/chat/moderations' : '/moderations',
        { model, input: chat ? input.conversations : texts },
        texts.length,
        signal,
      );
      return {
        results: results.map((result) => verdictOf(result, client.name)),
        prompt_tokens: promptTokens ?? approximateTokens(...texts),
      };
    },
  };
}

/** Mistral's classifiers: `/classifications` for texts, `/chat/classifications` for conversations. */
export function createUpstreamClassification(client: UpstreamClient): ClassificationProvider {
  return {
    async classify({ model, input, signal }) {
      const texts = inputTexts(input);
      const chat = 'conversations' in input;
      const { results, promptTokens } = await postForResults(
        client,
        chat ? '/chat/classifications' : '/classifications',
        { model, input: chat ? input.conversations.map((messages) => ({ messages })) : texts },
        texts.length,
        signal,
      );
      return {
        results: results.map((result) => {
          const targets = expectRecord(result, client.name, 'a classification result');
          const scores: ClassificationScores = {};
          for (const [target, value] of Object.entries(targets)) {
            const targetScores = isRecord(value) && isRecord(value.scores) ? value.scores : {};
            scores[target] = {
              scores: Object.fromEntries(
                Object.entries(targetScores).map(([label, score]) => [label, Number(score) || 0]),
              ),
            };
          }
          return scores;
        }),
        prompt_tokens: promptTokens ?? approximateTokens(...texts),
      };
    },
  };
}
