import { Type, type Static } from '@sinclair/typebox';
import { NameText } from './text-limits.js';

/** What a rule does when it matches: refuse the request (400 naming the rule), replace the match, or only record it. */
const TextAction = Type.Union([Type.Literal('block'), Type.Literal('redact'), Type.Literal('flag')]);

export const PII_ENTITIES = ['email', 'phone', 'card', 'iban', 'secret'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

const PiiRule = Type.Object(
  {
    name: NameText(),
    type: Type.Literal('pii'),
    /** Default: all of them. Cards must pass the Luhn check, IBANs mod 97. */
    entities: Type.Optional(
      Type.Array(Type.Union(PII_ENTITIES.map((entity) => Type.Literal(entity))), { minItems: 1, uniqueItems: true }),
    ),
    action: TextAction,
  },
  { additionalProperties: false },
);

const RegexRule = Type.Object(
  {
    name: NameText(),
    type: Type.Literal('regex'),
    /** RE2 syntax (no backreferences or lookarounds), matched case-sensitively unless the pattern says `(?i)`. */
    patterns: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 100 }),
    action: TextAction,
  },
  { additionalProperties: false },
);

const ModerationRule = Type.Object(
  {
    name: NameText(),
    type: Type.Literal('moderation'),
    /** A route with the `moderation` capability; default the built-in local classifier. */
    model: Type.Optional(NameText()),
    /** Only these categories count; default every category the model flags. */
    categories: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1 })),
    /** A category counts when its score reaches this; default the model's own verdict. */
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    action: Type.Union([Type.Literal('block'), Type.Literal('flag')]),
  },
  { additionalProperties: false },
);

export const GuardrailRuleSchema = Type.Union([PiiRule, RegexRule, ModerationRule]);
export type GuardrailRule = Static<typeof GuardrailRuleSchema>;

/** Checks on what a route (or a key) sends to the model (`input`) and on what the model answers (`output`). */
export const GuardrailsSchema = Type.Object(
  {
    input: Type.Optional(Type.Array(GuardrailRuleSchema, { maxItems: 32 })),
    output: Type.Optional(Type.Array(GuardrailRuleSchema, { maxItems: 32 })),
  },
  { additionalProperties: false },
);
export type GuardrailsConfig = Static<typeof GuardrailsSchema>;
