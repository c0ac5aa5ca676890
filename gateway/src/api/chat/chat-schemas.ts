import { Type, type Static } from '@sinclair/typebox';
import { TEXT_LIMITS } from '../../wire/text-limits.js';
import { ChatRole, ImageUrl, TextPart, ToolCallDelta } from '../../wire/chat-message-schemas.js';
import { ResponseFormat } from '../../wire/response-format-schema.js';
import { NamedToolChoice, ToolChoiceMode, ToolDefinition } from '../../wire/tool-schemas.js';
import { SamplingFields } from '../_shared/sampling-schema.js';
import { Usage } from '../../wire/usage-schema.js';

/** An image part as clients send it: OpenAI's `{url, detail}` object or Mistral's bare URL string. */
const ImagePartInput = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Union([ImageUrl, Type.String({ minLength: 1 })]),
});
/** Mistral's document part: the chat becomes a question about that document (document question answering). */
const DocumentUrlPart = Type.Object({
  type: Type.Literal('document_url'),
  document_url: Type.Union([Type.String({ minLength: 1 }), Type.Object({ url: Type.String({ minLength: 1 }) })]),
  document_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const ContentPartInput = Type.Union([TextPart, ImagePartInput, DocumentUrlPart], {
  description:
    'A text part, an image (http(s) URL or base64 data URL), or a document_url (answered by document question answering).',
});

/** Clients send tool-call arguments as JSON text (OpenAI) or as an object (some Mistral clients). */
const ToolCallInput = Type.Object({
  id: Type.String(),
  type: Type.Optional(Type.Literal('function')),
  function: Type.Object({
    name: Type.String(),
    arguments: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]),
  }),
});

export const Message = Type.Object(
  {
    role: ChatRole,
    content: Type.Optional(Type.Union([Type.String(), Type.Array(ContentPartInput), Type.Null()])),
    name: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.name })),
    tool_calls: Type.Optional(Type.Union([Type.Array(ToolCallInput), Type.Null()])),
    tool_call_id: Type.Optional(Type.String()),
    prefix: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const ResponseFormatField = Type.Optional(Type.Union([ResponseFormat, Type.Null()]));
const ToolChoiceField = Type.Optional(Type.Union([ToolChoiceMode, NamedToolChoice, Type.Null()]));

export const ChatBody = Type.Object(
  {
    ...SamplingFields,
    messages: Type.Optional(Type.Array(Message, { minItems: 1 })),
    response_format: ResponseFormatField,
    tools: Type.Optional(Type.Union([Type.Array(ToolDefinition), Type.Null()])),
    tool_choice: ToolChoiceField,
    parallel_tool_calls: Type.Optional(Type.Boolean()),
    /** Document question answering (SPEC.md): a base64 document or URL and a question, on an OCR model. */
    document: Type.Optional(Type.String({ minLength: 1 })),
    question: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: true },
);
export type ChatBodyType = Static<typeof ChatBody>;

/**
 * Mistral's `completion_args` (an agent's, a conversation turn's): chat's own parameters with chat's
 * schemas and ranges, so a value chat refuses is refused here too, as a 422 naming
 * `completion_args.<field>`. They become the chat body of each turn.
 */
export const CompletionArgs = Type.Object(
  {
    temperature: SamplingFields.temperature,
    top_p: SamplingFields.top_p,
    max_tokens: SamplingFields.max_tokens,
    random_seed: SamplingFields.random_seed,
    stop: SamplingFields.stop,
    presence_penalty: SamplingFields.presence_penalty,
    frequency_penalty: SamplingFields.frequency_penalty,
    response_format: ResponseFormatField,
    tool_choice: ToolChoiceField,
  },
  {
    additionalProperties: true,
    description:
      'temperature, top_p, max_tokens, random_seed, stop, presence_penalty, frequency_penalty, response_format, tool_choice: the ranges chat accepts',
  },
);
export type CompletionArgsType = Static<typeof CompletionArgs>;

export const ChatCompletion = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('chat.completion'),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        message: Type.Object({
          role: Type.Literal('assistant'),
          content: Type.Union([Type.String(), Type.Null()]),
          tool_calls: Type.Optional(Type.Array(ToolCallInput)),
        }),
        finish_reason: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    usage: Usage,
  },
  { additionalProperties: true },
);

/** One server-sent frame of a streamed chat completion (`stream: true`); usage comes last when `stream_options.include_usage`. */
export const ChatCompletionChunk = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion.chunk'),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer(),
      delta: Type.Object({
        role: Type.Optional(Type.Literal('assistant')),
        content: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        tool_calls: Type.Optional(Type.Array(ToolCallDelta)),
      }),
      finish_reason: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  usage: Type.Optional(Type.Union([Usage, Type.Null()])),
});
export type ChatCompletionChunk = Static<typeof ChatCompletionChunk>;
