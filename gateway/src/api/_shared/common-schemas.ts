import { Type } from '@sinclair/typebox';

const ErrorFields = {
  message: Type.String(),
  type: Type.String(),
  param: Type.Union([Type.String(), Type.Null()]),
  code: Type.String(),
};

export const ErrorResponse = Type.Object(
  {
    object: Type.Literal('error'),
    ...ErrorFields,
    error: Type.Object(ErrorFields, { description: "The same fields nested as OpenAI's clients read them." }),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every error: what went wrong and how to fix it, a stable code, and the offending field.',
  },
);

/** Error responses every authenticated route can give. */
export const errorResponses = {
  '4xx': ErrorResponse,
  '5xx': ErrorResponse,
};
