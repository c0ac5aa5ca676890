import { Type, type Static } from '@sinclair/typebox';
import { NameText } from './text-limits.js';
import { CAPABILITIES } from './capabilities.js';
import { ResponseCacheSchema } from './response-cache-schema.js';
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

/** Load balancing strategies (docs/routing.md); LiteLLM's names are accepted as aliases and mean the same. */
export const ROUTING_STRATEGIES = ['weighted', 'least_busy', 'lowest_latency', 'usage_based'] as const;
export type RoutingStrategy = (typeof ROUTING_STRATEGIES)[number];
export const ROUTING_STRATEGY_ALIASES: Readonly<Record<string, RoutingStrategy>> = {
  'simple-shuffle': 'weighted',
  'least-busy': 'least_busy',
  'latency-based-routing': 'lowest_latency',
  'usage-based-routing': 'usage_based',
  'usage-based-routing-v2': 'usage_based',
};

/** One deployment of a route's model: a provider and the name it knows the model by. */
export const DeploymentConfigSchema = Type.Object(
  {
    provider: NameText(),
    upstream_model: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    /** Share of the traffic under `weighted` (default 1). */
    weight: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    /** Requests and tokens per minute this deployment takes; past them it is skipped until the next minute. */
    rpm: Type.Optional(Type.Integer({ minimum: 1 })),
    tpm: Type.Optional(Type.Integer({ minimum: 1 })),
    tags: Type.Optional(Type.Array(NameText(), { maxItems: 32 })),
  },
  { additionalProperties: false },
);
export type DeploymentConfig = Static<typeof DeploymentConfigSchema>;

export const ModelConfigSchema = Type.Object(
  {
    id: NameText(),
    aliases: Type.Optional(Type.Array(NameText(), { maxItems: 64 })),
    /** The one provider serving the route; a route lists `deployments` instead to balance several. */
    provider: Type.Optional(NameText()),
    upstream_model: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    deployments: Type.Optional(Type.Array(DeploymentConfigSchema, { minItems: 1, maxItems: 64 })),
    routing_strategy: Type.Optional(
      Type.Union([...ROUTING_STRATEGIES, ...Object.keys(ROUTING_STRATEGY_ALIASES)].map((name) => Type.Literal(name))),
    ),
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
    /** Answers repeated requests from the response cache (off unless given). */
    cache: Type.Optional(ResponseCacheSchema),
    /** Checks on this route's input and output (docs/routing.md). */
    guardrails: Type.Optional(GuardrailsSchema),
  },
  { additionalProperties: false },
);
export type ModelConfig = Static<typeof ModelConfigSchema>;
