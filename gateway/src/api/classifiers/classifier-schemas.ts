import { Type, type Static } from '@sinclair/typebox';
import { ChatRole } from '../../wire/chat-message-schemas.js';

const MAX_INPUTS = 2048;

/** OpenAI's multimodal input part; only text is moderated here. */
const InputPart = Type.Object(
  { type: Type.String(), text: Type.Optional(Type.String()) },
  { additionalProperties: true },
);

/** OpenAI: a string, strings, or one input of parts; Mistral: a string or strings (`inputs` in older clients). */
const TextInput = Type.Union([
  Type.String(),
  Type.Array(Type.String(), { minItems: 1, maxItems: MAX_INPUTS }),
  Type.Array(InputPart, { minItems: 1, maxItems: 256 }),
]);

export const TextClassifierBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    input: Type.Optional(TextInput),
    inputs: Type.Optional(TextInput),
  },
  { additionalProperties: true },
);
export type TextClassifierBody = Static<typeof TextClassifierBody>;

/** A chat message as both SDKs send it: text content or parts (only text parts are read). */
export const ClassifierMessage = Type.Object(
  {
    role: ChatRole,
    content: Type.Optional(Type.Union([Type.String(), Type.Array(InputPart), Type.Null()])),
  },
  { additionalProperties: true },
);
export type ClassifierMessage = Static<typeof ClassifierMessage>;

const Conversation = Type.Array(ClassifierMessage, { minItems: 1, maxItems: 1024 });

/** Mistral's chat moderation: one conversation or several. */
export const ChatModerationBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    input: Type.Optional(Type.Union([Conversation, Type.Array(Conversation, { minItems: 1, maxItems: MAX_INPUTS })])),
    inputs: Type.Optional(Type.Union([Conversation, Type.Array(Conversation, { minItems: 1, maxItems: MAX_INPUTS })])),
  },
  { additionalProperties: true },
);
export type ChatModerationBody = Static<typeof ChatModerationBody>;

const Instruct = Type.Object({ messages: Conversation }, { additionalProperties: true });

/** Mistral's chat classification: `{messages}` or a list of them. */
export const ChatClassificationBody = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    input: Type.Union([Instruct, Type.Array(Instruct, { minItems: 1, maxItems: MAX_INPUTS })]),
  },
  { additionalProperties: true },
);
export type ChatClassificationBody = Static<typeof ChatClassificationBody>;

const Scores = Type.Record(Type.String(), Type.Number());

export const ModerationAnswer = Type.Object(
  {
    id: Type.String(),
    model: Type.String(),
    results: Type.Array(
      Type.Object(
        {
          flagged: Type.Boolean(),
          categories: Type.Record(Type.String(), Type.Boolean()),
          category_scores: Scores,
          category_applied_input_types: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ClassificationAnswer = Type.Object(
  {
    id: Type.String(),
    model: Type.String(),
    results: Type.Array(Type.Record(Type.String(), Type.Object({ scores: Scores }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);
