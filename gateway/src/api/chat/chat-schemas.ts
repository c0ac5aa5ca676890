import { Type, type Static } from '@sinclair/typebox';
import { SamplingFields } from '../_shared/sampling-schema.js';

const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() });
const ImagePart = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Union([Type.Object({ url: Type.String({ minLength: 1 }), detail: Type.Optional(Type.String()) }), Type.String({ minLength: 1 })]),
});
/** Mistral's document part: the chat becomes a question about that document (document question answering). */
const DocumentUrlPart = Type.Object({
  type: Type.Literal('document_url'),
  document_url: Type.Union([Type.String({ minLength: 1 }), Type.Object({ url: Type.String({ minLength: 1 }) })]),
  document_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const ContentPart = Type.Union([TextPart, ImagePart, DocumentUrlPart], { description: 'A text part, an image (http(s) URL or base64 data URL), or a document_url (answered by document question answering).' });

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Optional(Type.Literal('function')),
  function: Type.Object({ name: Type.String(), arguments: Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]) }),
});

export const Message = Type.Object(
  {
    role: Type.Union(['system', 'developer', 'user', 'assistant', 'tool'].map((role) => Type.Literal(role))),
    content: Type.Optional(Type.Union([Type.String(), Type.Array(ContentPart), Type.Null()])),
    name: Type.Optional(Type.String()),
    tool_calls: Type.Optional(Type.Union([Type.Array(ToolCall), Type.Null()])),
    tool_call_id: Type.Optional(Type.String()),
    prefix: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const Tool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String({ minLength: 1 }), description: Type.Optional(Type.String()), parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())), strict: Type.Optional(Type.Boolean()) }),
});

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    json_schema: Type.Object({ name: Type.Optional(Type.String()), schema: Type.Record(Type.String(), Type.Unknown()), strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])), description: Type.Optional(Type.String()) }),
  }),
]);

export const ChatBody = Type.Object(
  {
    ...SamplingFields,
    messages: Type.Optional(Type.Array(Message, { minItems: 1 })),
    response_format: Type.Optional(Type.Union([ResponseFormat, Type.Null()])),
    tools: Type.Optional(Type.Union([Type.Array(Tool), Type.Null()])),
    tool_choice: Type.Optional(
      Type.Union([
        Type.Union(['auto', 'none', 'required', 'any'].map((choice) => Type.Literal(choice))),
        Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
        Type.Null(),
      ]),
    ),
    parallel_tool_calls: Type.Optional(Type.Boolean()),
    /** Document question answering (SPEC.md): a base64 document or URL and a question, on an OCR model. */
    document: Type.Optional(Type.String({ minLength: 1 })),
    question: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: true },
);
export type ChatBodyType = Static<typeof ChatBody>;

const Usage = Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() });

export const ChatCompletion = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('chat.completion'),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        message: Type.Object({ role: Type.Literal('assistant'), content: Type.Union([Type.String(), Type.Null()]), tool_calls: Type.Optional(Type.Array(ToolCall)) }),
        finish_reason: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    usage: Usage,
  },
  { additionalProperties: true },
);
