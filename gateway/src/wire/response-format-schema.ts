import { Type, type Static } from '@sinclair/typebox';

export const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    json_schema: Type.Object({
      name: Type.Optional(Type.String()),
      schema: Type.Record(Type.String(), Type.Unknown()),
      strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      description: Type.Optional(Type.String()),
    }),
  }),
]);
export type ResponseFormat = Static<typeof ResponseFormat>;
