import { Type, type Static } from '@sinclair/typebox';
import { CAPABILITIES } from '../../providers/contracts/capability.js';
import { HealthSchema } from '../../wire/health-schema.js';
import { DeploymentStatusSchema } from '../../wire/deployment-status-schema.js';
import { ROUTING_STRATEGIES } from '../../wire/model-route-schema.js';

export const ModelObject = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('model'),
    created: Type.Integer(),
    owned_by: Type.String(),
    capabilities: Type.Array(Type.Union(CAPABILITIES.map((capability) => Type.Literal(capability)))),
    aliases: Type.Array(Type.String()),
    archived: Type.Boolean(),
    provider: Type.String(),
    state: Type.Union(
      [Type.Literal('cold'), Type.Literal('loading'), Type.Literal('ready'), Type.Literal('unavailable')],
      {
        description:
          "cold | loading | ready | unavailable: the engine's state, unavailable too when `health` says the route cannot serve (an unreachable upstream)",
      },
    ),
    state_detail: Type.Optional(Type.String()),
    health: HealthSchema,
    breaker_state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')], {
      description: "The provider's circuit breaker: open means requests to it are refused until the cool-down ends",
    }),
    fine_tuned: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.String()),
    pricing: Type.Optional(
      Type.Object({
        input_per_million: Type.Number(),
        output_per_million: Type.Number(),
        per_request: Type.Optional(Type.Number()),
      }),
    ),
    ocr_languages: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "Local OCR models: the language models installed (Tesseract's codes: eng, fra, rus, chi_sim, ...), once the engine has started.",
      }),
    ),
    image_sizes: Type.Optional(
      Type.Array(Type.String(), { description: 'Image generation models: the sizes the route accepts.' }),
    ),
    max_images: Type.Optional(Type.Integer({ description: 'Image generation models: the largest `n`.' })),
    routing_strategy: Type.Optional(
      Type.Union(
        ROUTING_STRATEGIES.map((strategy) => Type.Literal(strategy)),
        { description: 'Balanced routes: how a deployment is chosen (docs/routing.md)' },
      ),
    ),
    deployments: Type.Optional(
      Type.Array(DeploymentStatusSchema, { description: "Balanced routes: each deployment's state and traffic" }),
    ),
  },
  { additionalProperties: true },
);
export type GatewayModel = Static<typeof ModelObject>;

/** POST and DELETE …/archive (OpenAI and Mistral paths): the model's archived flag after the change. */
export const ArchiveResponse = Type.Object({
  id: Type.String(),
  object: Type.Literal('model'),
  archived: Type.Boolean(),
});
export type ArchiveResult = Static<typeof ArchiveResponse>;
