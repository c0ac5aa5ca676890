import { Type, type Static } from '@sinclair/typebox';

/** A passage of the document that supports a document question's answer (`citations` of the answer). */
export const Citation = Type.Object({
  page: Type.Integer(),
  text: Type.String(),
  start: Type.Integer({ description: 'Offset into document_text where the passage starts' }),
  end: Type.Integer({ description: 'Offset into document_text where the passage ends (exclusive)' }),
  score: Type.Number(),
});
export type Citation = Static<typeof Citation>;
