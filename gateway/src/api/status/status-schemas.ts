import { Type, type Static } from '@sinclair/typebox';
import { EngineState } from '../../wire/engine-state-schema.js';
import { HealthSchema } from '../../wire/health-schema.js';
import { BreakerObject } from '../../wire/breaker-schema.js';

export const ProviderKind = Type.Union([Type.Literal('local'), Type.Literal('upstream')], {
  description:
    "local: an engine in the gateway, whose state is its own; upstream: an HTTP provider (it has a base URL), which always reports ready: its health is the circuit breaker's",
});

export const StatusResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('starting')]),
  response_ms: Type.Number(),
  version: Type.String(),
  instance_id: Type.String({ description: 'GATEWAY_INSTANCE_ID or server.instance_id, else hostname-pid-<random>' }),
  team: Type.Optional(
    Type.Object(
      { redis: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]) },
      {
        description:
          'Team mode only: whether the shared Redis answers (while it does not, rate-limited and paid requests get 503).',
      },
    ),
  ),
  uptime_seconds: Type.Number(),
  checks: Type.Object({ asr: Type.Boolean(), ocr: Type.Boolean() }),
  capabilities: Type.Object(
    { ocr: HealthSchema, transcription: HealthSchema },
    {
      description:
        'Whether a route can serve each capability now, and why not: the health of the first route that can (no_route when none is configured)',
    },
  ),
  engines: Type.Optional(
    Type.Record(Type.String(), Type.Object({ state: Type.String(), detail: Type.Optional(Type.String()) })),
  ),
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      kind: ProviderKind,
      state: EngineState,
      detail: Type.Optional(Type.String()),
      breaker: BreakerObject,
      health: HealthSchema,
      last_test: Type.Optional(
        Type.Object(
          { ok: Type.Boolean(), latency_ms: Type.Number() },
          {
            description:
              "The last test (Settings: POST /settings/providers/{id}/test) on this instance, if any; kept in memory. With the breaker, what tells an upstream's health",
          },
        ),
      ),
    }),
  ),
});
export type GatewayStatus = Static<typeof StatusResponse>;
