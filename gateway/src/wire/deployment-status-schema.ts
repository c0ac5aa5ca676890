import { Type, type Static } from '@sinclair/typebox';
import { HealthSchema } from './health-schema.js';

/** One deployment of a balanced route as GET /models and the Models page show it (core/routing/route-deployment.ts). */
export const DeploymentStatusSchema = Type.Object({
  id: Type.String({ description: 'The deployment within its route: `<provider>/<upstream_model>`' }),
  provider: Type.String(),
  upstream_model: Type.String(),
  weight: Type.Number(),
  rpm: Type.Optional(Type.Integer()),
  tpm: Type.Optional(Type.Integer()),
  tags: Type.Array(Type.String()),
  health: HealthSchema,
  breaker_state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
  cooldown_seconds: Type.Integer({
    description: 'Seconds it is still skipped after answering 429 (0: not cooling down)',
  }),
  in_flight: Type.Integer({ description: 'Requests waiting for its first byte on this instance' }),
  requests: Type.Integer({ description: 'Requests sent to it since the gateway started (this instance)' }),
  errors: Type.Integer({ description: 'Of those, the ones that failed' }),
  latency_ms: Type.Union([Type.Number(), Type.Null()], {
    description: 'Mean time to its answer (first byte of a stream) over its last 32 requests',
  }),
  tokens: Type.Integer({ description: 'Prompt and completion tokens it served' }),
  spend: Type.Number({ description: "What its requests cost at the route's prices" }),
  minute_requests: Type.Integer({
    description:
      'Requests counted this minute (every instance in team mode when it has rpm/tpm or the route is usage_based)',
  }),
  minute_tokens: Type.Integer({
    description:
      'Tokens counted this minute (every instance in team mode when it has rpm/tpm or the route is usage_based)',
  }),
});
export type DeploymentStatus = Static<typeof DeploymentStatusSchema>;
