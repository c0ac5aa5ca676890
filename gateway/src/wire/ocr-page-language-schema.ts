import { Type, type Static } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * What a recognised page says about its language, in both OCR answers (SPEC's pages and Mistral's):
 * not in Mistral's API, which its SDK accepts (it ignores fields it does not know).
 */
export const PageLanguageFields = {
  detected_language: Type.Optional(
    Nullable(
      Type.String({
        description:
          "Not in Mistral's API: the page's language as Tesseract's code (fra, rus, jpn, chi_sim, ...), detected or the first one named in `languages`; null when the page has no text to tell.",
      }),
    ),
  ),
  detected_script: Type.Optional(
    Nullable(
      Type.String({ description: "Not in Mistral's API: the page's script (Latin, Cyrillic, Greek, Han, ...)." }),
    ),
  ),
  languages: Type.Optional(
    Type.Array(Type.String(), {
      description: "Not in Mistral's API: the language models the page was read with (empty: none could read it).",
    }),
  ),
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Not in Mistral's API: what the reader of this page should know (a language with no model installed).",
    }),
  ),
};

export const PageLanguageFieldsSchema = Type.Object(PageLanguageFields);
export type PageLanguageFieldValues = Static<typeof PageLanguageFieldsSchema>;

/** A block's language where it differs from its page's (a mixed page). */
export const BlockLanguageField = {
  language: Type.Optional(
    Type.String({ description: "Not in Mistral's API: the block's language where it differs from the page's." }),
  ),
};
