import { isObject, openAiError, type FakeReply, type JsonObject } from './fake-upstream-replies.js';

/** The text of one input: a string, or a conversation's message contents (Mistral's chat endpoints). */
function textOf(input: unknown): string {
  if (typeof input === 'string') return input;
  if (isObject(input) && Array.isArray(input.messages)) return textOf(input.messages);
  if (Array.isArray(input))
    return input.map((item) => (isObject(item) ? String(item.content ?? '') : textOf(item))).join('\n');
  return '';
}

/** One entry per input: `input` is a string, a list of them, a conversation or a list of conversations. */
function entries(body: JsonObject, chat: boolean): unknown[] | undefined {
  const input = body.input;
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  // Mistral's chat moderation: one conversation (a list of messages) or several.
  if (chat && isObject(input[0]) && 'role' in input[0]) return [input];
  return input;
}

/**
 * OpenAI's and Mistral's moderation (`/moderations`, `/chat/moderations`) and Mistral's classifiers
 * (`/classifications`, `/chat/classifications`), deterministic: a text that says "forbidden" is
 * flagged for violence; a text that says "great" is classified `positive`.
 */
export function classifierReply(path: string, body: JsonObject): FakeReply {
  if (typeof body.model !== 'string') return openAiError(400, 'you must provide a model parameter', 'model');
  const inputs = entries(body, path.startsWith('/v1/chat/'));
  if (!inputs) return openAiError(400, "'input' is required", 'input');
  const texts = inputs.map(textOf);
  if (path.endsWith('/moderations')) {
    return {
      kind: 'json',
      status: 200,
      body: {
        id: 'modr-upstream',
        model: body.model,
        results: texts.map((text) => {
          const violent = /forbidden/i.test(text);
          return {
            flagged: violent,
            categories: { violence: violent, sexual: false },
            category_scores: { violence: violent ? 0.97 : 0.01, sexual: 0.001 },
          };
        }),
      },
    };
  }
  return {
    kind: 'json',
    status: 200,
    body: {
      id: 'class-upstream',
      model: body.model,
      results: texts.map((text) => {
        const positive = /great/i.test(text) ? 0.9 : 0.2;
        return { sentiment: { scores: { positive, negative: Math.round((1 - positive) * 10) / 10 } } };
      }),
    },
  };
}
