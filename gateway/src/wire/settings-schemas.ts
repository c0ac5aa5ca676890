import { Type, type Static, type TSchema } from '@sinclair/typebox';

import { ModelConfigSchema } from './model-route-schema.js';
import { HealthSchema } from './health-schema.js';
import { ProviderTimeoutsSchema } from './provider-schema.js';
import { BreakerObject } from './breaker-schema.js';

/**
 * The Settings API's bodies and answers (core/settings makes and takes them, api/settings declares
 * them, the console reads and sends them): one source of these types.
 */

const { id: _id, ...routeFields } = ModelConfigSchema.properties;
export const RouteBody = Type.Object(routeFields, { additionalProperties: false });

export const RouteSetting = Type.Object({
  ...ModelConfigSchema.properties,
  source: Type.Union([Type.Literal('config'), Type.Literal('console'), Type.Literal('built_in')], {
    description:
      "config: as in the config file; console: added or edited in the console (stored in the database); built_in: the gateway's own (a local engine's route, a GGUF file in the models folder)",
  }),
  in_config: Type.Boolean({
    description:
      'The config file, or the built-in defaults, define a route with this id (POST .../reset brings it back)',
  }),
});

export const SettingSource = Type.Union([Type.Literal('config'), Type.Literal('console')], {
  description: 'config: the config file (or its default); console: set in the console (stored in the database)',
});
const Timeouts = Type.Optional(ProviderTimeoutsSchema);

export const ProviderCheck = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Union([Type.Literal('request'), Type.Literal('engine_state')]),
  model: Type.Optional(Type.String()),
  capability: Type.Optional(Type.String()),
  latency_ms: Type.Number(),
  error: Type.Optional(Type.String()),
});

export const ProviderSetting = Type.Object({
  id: Type.String(),
  type: Type.String(),
  base_url: Type.Optional(Type.String()),
  has_api_key: Type.Boolean({ description: 'Whether the provider has a key; the key itself is never returned' }),
  timeouts: Timeouts,
  test_model: Type.Optional(Type.String({ description: 'Upstream model a test calls when the provider has no route' })),
  source: Type.Union([Type.Literal('config'), Type.Literal('console'), Type.Literal('built_in')], {
    description:
      "config: as in the config file; console: added or edited in the console (stored in the database); built_in: one of the gateway's local engines (local-ocr, local-llm, local-speech, local-embed)",
  }),
  in_config: Type.Boolean({
    description:
      'The config file, or the built-in defaults, define a provider with this id (POST .../reset brings it back)',
  }),
  removed: Type.Boolean({
    description: 'A config-file provider removed in the console: not running until it is reset',
  }),
  state: Type.String(),
  detail: Type.Optional(Type.String()),
  breaker: BreakerObject,
  health: HealthSchema,
  routes: Type.Array(Type.String()),
  /** The last test (POST .../test) on this instance since it started or the provider last changed; kept in memory only. */
  last_check: Type.Optional(ProviderCheck),
});

const ProviderFields = {
  type: Type.String({
    minLength: 1,
    description: 'Provider kind: openai, openai-compatible, mistral, llamacpp, tesseract, sherpa-onnx, onnx-embeddings',
  }),
  base_url: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 })),
  api_key: Type.Optional(
    Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], {
      description: 'Write-only. Absent or empty keeps the current key; null removes it',
    }),
  ),
  timeouts: Timeouts,
  test_model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};
export const ProviderId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' });
export const NewProviderBody = Type.Object({ id: ProviderId, ...ProviderFields }, { additionalProperties: false });
export const ProviderBody = Type.Object(ProviderFields, { additionalProperties: false });

const Origin = Type.String({
  pattern: '^(\\*|https?://[^/\\s]+)$',
  maxLength: 300,
  description: 'An origin (scheme://host[:port]) or *',
});
const HostName = Type.String({ pattern: '^[A-Za-z0-9.-]+$', minLength: 1, maxLength: 253 });
export const ServerSetting = Type.Object(
  {
    config_path: Type.Union([Type.String(), Type.Null()]),
    data_dir: Type.String({ description: 'Read-only: GATEWAY_DATA_DIR' }),
    cors_origins: Type.Array(Type.String()),
    allowed_hosts: Type.Array(Type.String()),
    request_log_bodies: Type.Boolean(),
    request_log_retention_days: Type.Number(),
    trace_content: Type.Boolean({
      description: 'Message contents go on trace spans (gen_ai.input.messages, gen_ai.output.messages).',
    }),
    sources: Type.Object({
      cors_origins: SettingSource,
      allowed_hosts: SettingSource,
      request_log_bodies: SettingSource,
      request_log_retention_days: SettingSource,
      trace_content: SettingSource,
    }),
  },
  { description: 'The editable server settings as they apply now, and where each value comes from' },
);
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
export const ServerChange = Type.Object(
  {
    cors_origins: nullable(Type.Array(Origin, { maxItems: 100 })),
    allowed_hosts: nullable(Type.Array(HostName, { maxItems: 100 })),
    request_log_bodies: nullable(Type.Boolean()),
    request_log_retention_days: nullable(Type.Number({ minimum: 0, maximum: 3650 })),
    trace_content: nullable(Type.Boolean()),
  },
  { additionalProperties: false, description: 'Fields to change; null goes back to the config file value' },
);

export const SettingsResponse = Type.Object({
  providers: Type.Array(ProviderSetting),
  provider_types: Type.Array(Type.String(), {
    description: 'The provider kinds this gateway can run (the type of a new provider)',
  }),
  routes: Type.Array(RouteSetting),
  server: ServerSetting,
});

export type RouteBody = Static<typeof RouteBody>;
export type RouteSetting = Static<typeof RouteSetting>;
export type SettingSource = Static<typeof SettingSource>;
/** Where a provider or route comes from: the config file, the console, or the gateway's own built-in engines. */
export type EntrySource = RouteSetting['source'];
export type ProviderCheck = Static<typeof ProviderCheck>;
export type ProviderSetting = Static<typeof ProviderSetting>;
export type NewProviderBody = Static<typeof NewProviderBody>;
/** What the console sends for a provider: the config file's fields. An absent or empty api_key keeps the current key; null clears it. */
export type ProviderBody = Static<typeof ProviderBody>;
export type ServerSetting = Static<typeof ServerSetting>;
/** A change from the console: a value sets it, null goes back to the config file's value. */
export type ServerChange = Static<typeof ServerChange>;
export type SettingsResponse = Static<typeof SettingsResponse>;
