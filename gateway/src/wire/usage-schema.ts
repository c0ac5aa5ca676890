import { Type, type ObjectOptions, type Static, type TProperties } from '@sinclair/typebox';

const TokenCounts = {
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
};

/** OpenAI's usage object: the tokens a request read (prompt) and wrote (completion), and their sum. */
export const Usage = Type.Object(TokenCounts);
export type Usage = Static<typeof Usage>;

/** The usage object with an endpoint's own fields after the token counts, or its own description. */
export const UsageWith = <T extends TProperties>(fields: T, options?: ObjectOptions) =>
  Type.Object({ ...TokenCounts, ...fields }, options);

/** Embeddings write nothing: their usage has no completion tokens. */
export const EmbeddingsUsage = Type.Omit(Usage, ['completion_tokens']);
