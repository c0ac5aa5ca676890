import { Type, type Static } from '@sinclair/typebox';

/** A function the model may call. */
export const ToolDefinition = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Up to 64 characters, as OpenAI and Mistral accept',
    }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    strict: Type.Optional(Type.Boolean()),
  }),
});
export type ToolDefinition = Static<typeof ToolDefinition>;

/** `any` is Mistral's word for OpenAI's `required`. */
export const ToolChoiceMode = Type.Union(
  (['auto', 'none', 'required', 'any'] as const).map((choice) => Type.Literal(choice)),
);
export const NamedToolChoice = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String() }),
});
export const ToolChoice = Type.Union([ToolChoiceMode, NamedToolChoice]);
export type ToolChoice = Static<typeof ToolChoice>;
