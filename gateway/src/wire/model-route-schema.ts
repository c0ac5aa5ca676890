import { Type, type Static } from '@sinclair/typebox';
import { NameText } from './text-limits.js';
import { CAPABILITIES } from './capabilities.js';
import { GuardrailsSchema } from './guardrail-schema.js';

/** A model route as the config file's `models` list and the Settings API write it. */

const Capability = Type.Union(CAPABILITIES.map((c) => Type.Literal(c)));

export const PricingSchema = Type.Object(
  {
    /** Price per million prompt tokens, in the account currency. */
    input_per_million: Type.Number({ minimum: 0 }),
    output_per_million: Type.Number({ minimum: 0 }),
    /** Flat price per request (OCR pages, images, transcriptions). */
    per_request: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type Pricing = Static<typeof PricingSchema>;

export const ModelConfigSchema = Type.Object(
  {
    id: NameText(),
    aliases: Type.Optional(Type.Array(NameText(), { maxItems: 64 })),
    provider: NameText(),
    upstream_model: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    capabilities: Type.Array(Capability, { minItems: 1 }),
    pricing: Type.Optional(PricingSchema),
    /** Model ids tried in order when this route fails before its first byte. */
    fallbacks: Type.Optional(Type.Array(NameText(), { maxItems: 16 })),
    /** Retries of this route (connection errors, 429, 5xx before the first byte). */
    max_retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    /** Overall deadline of a request on this model (retries, backoff and fallbacks included); overrides server.request_deadline_ms. */
    request_deadline_ms: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Image generation: allowed `<w>x<h>` sizes and the largest `n`. */
    image_sizes: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]+x[0-9]+$' }))),
    max_images: Type.Optional(Type.Integer({ minimum: 1, maximum: 16 })),
    owned_by: Type.Optional(NameText()),
    /** Checks on this route's input and output (docs/routing.md). */
    guardrails: Type.Optional(GuardrailsSchema),
  },
  { additionalProperties: false },
);
export type ModelConfig = Static<typeof ModelConfigSchema>;
