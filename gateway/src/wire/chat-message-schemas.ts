import { Type, type Static } from '@sinclair/typebox';

/** Chat messages as providers receive them: the OpenAI wire form, after the api has normalised what clients may spell two ways. */

export const ChatRole = Type.Union(
  (['system', 'developer', 'user', 'assistant', 'tool'] as const).map((role) => Type.Literal(role)),
);

export const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() });
export type TextPart = Static<typeof TextPart>;

export const ImageUrl = Type.Object({ url: Type.String({ minLength: 1 }), detail: Type.Optional(Type.String()) });
export const ImageUrlPart = Type.Object({ type: Type.Literal('image_url'), image_url: ImageUrl });
export type ImageUrlPart = Static<typeof ImageUrlPart>;

export const ContentPart = Type.Union([TextPart, ImageUrlPart]);
export type ContentPart = Static<typeof ContentPart>;

export const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String() }),
});
export type ToolCall = Static<typeof ToolCall>;

/** A piece of a streamed tool call, for the choice's call at `index`: the first piece names it, the rest add to its arguments. */
export const ToolCallDelta = Type.Object({
  index: Type.Integer(),
  id: Type.Optional(Type.String()),
  type: Type.Optional(Type.Literal('function')),
  function: Type.Optional(Type.Object({ name: Type.Optional(Type.String()), arguments: Type.Optional(Type.String()) })),
});
export type ToolCallDelta = Static<typeof ToolCallDelta>;

export const ChatMessage = Type.Object({
  role: ChatRole,
  content: Type.Union([Type.String(), Type.Array(ContentPart), Type.Null()]),
  name: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall)),
  tool_call_id: Type.Optional(Type.String()),
});
export type ChatMessage = Static<typeof ChatMessage>;
