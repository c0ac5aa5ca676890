import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { ModelConfigSchema } from '../../wire/model-route-schema.js';
import { ProviderTimeoutsSchema } from '../../wire/provider-schema.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { BreakerObject } from '../status/status-schemas.js';

const { id: _id, ...routeFields } = ModelConfigSchema.properties;
const RouteBody = Type.Object(routeFields, { additionalProperties: false });

const RouteSetting = Type.Object({
  ...ModelConfigSchema.properties,
  source: Type.Union([Type.Literal('config'), Type.Literal('console')], { description: 'config: as in the config file; console: added or edited in the console (stored in the database)' }),
  in_config: Type.Boolean({ description: 'The config file defines a route with this id (POST .../reset brings it back)' }),
});

const Source = Type.Union([Type.Literal('config'), Type.Literal('console')], { description: 'config: the config file (or its default); console: set in the console (stored in the database)' });
const Timeouts = Type.Optional(ProviderTimeoutsSchema);

const ProviderSetting = Type.Object({
  id: Type.String(),
  type: Type.String(),
  base_url: Type.Optional(Type.String()),
  has_api_key: Type.Boolean({ description: 'Whether the provider has a key; the key itself is never returned' }),
  timeouts: Timeouts,
  test_model: Type.Optional(Type.String({ description: 'Upstream model a test calls when the provider has no route' })),
  source: Source,
  in_config: Type.Boolean({ description: 'The config file defines a provider with this id (POST .../reset brings it back)' }),
  removed: Type.Boolean({ description: 'A config-file provider removed in the console: not running until it is reset' }),
  state: Type.String(),
  detail: Type.Optional(Type.String()),
  breaker: BreakerObject,
  routes: Type.Array(Type.String()),
});

const ProviderFields = {
  type: Type.String({ minLength: 1, description: 'Provider kind: openai, openai-compatible, mistral, llamacpp, tesseract, sherpa-onnx, onnx-embeddings' }),
  base_url: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2000 })),
  api_key: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { description: 'Write-only. Absent or empty keeps the current key; null removes it' })),
  timeouts: Timeouts,
  test_model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};
const ProviderId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' });
const NewProviderBody = Type.Object({ id: ProviderId, ...ProviderFields }, { additionalProperties: false });
const ProviderBody = Type.Object(ProviderFields, { additionalProperties: false });

const Origin = Type.String({ pattern: '^(\\*|https?://[^/\\s]+)$', maxLength: 300, description: 'An origin (scheme://host[:port]) or *' });
const HostName = Type.String({ pattern: '^[A-Za-z0-9.-]+$', minLength: 1, maxLength: 253 });
const ServerSetting = Type.Object(
  {
    config_path: Type.Union([Type.String(), Type.Null()]),
    data_dir: Type.String({ description: 'Read-only: GATEWAY_DATA_DIR' }),
    cors_origins: Type.Array(Type.String()),
    allowed_hosts: Type.Array(Type.String()),
    request_log_bodies: Type.Boolean(),
    request_log_retention_days: Type.Number(),
    sources: Type.Object({ cors_origins: Source, allowed_hosts: Source, request_log_bodies: Source, request_log_retention_days: Source }),
  },
  { description: 'The editable server settings as they apply now, and where each value comes from' },
);
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const ServerChange = Type.Object(
  {
    cors_origins: nullable(Type.Array(Origin, { maxItems: 100 })),
    allowed_hosts: nullable(Type.Array(HostName, { maxItems: 100 })),
    request_log_bodies: nullable(Type.Boolean()),
    request_log_retention_days: nullable(Type.Number({ minimum: 0, maximum: 3650 })),
  },
  { additionalProperties: false, description: 'Fields to change; null goes back to the config file value' },
);

const SettingsResponse = Type.Object({
  providers: Type.Array(ProviderSetting),
  provider_types: Type.Array(Type.String(), { description: 'The provider kinds this gateway can run (the type of a new provider)' }),
  routes: Type.Array(RouteSetting),
  server: ServerSetting,
});

const ProviderCheck = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Union([Type.Literal('request'), Type.Literal('engine_state')]),
  model: Type.Optional(Type.String()),
  capability: Type.Optional(Type.String()),
  latency_ms: Type.Number(),
  error: Type.Optional(Type.String()),
});

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const ProviderParams = Type.Object({ id: ProviderId });
const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
const owner = { auth: 'owner' as const };
const tags = ['settings'];

/** Owner-only settings: the providers, model routes and server settings the console edits (stored in the database, applied at once, kept across restarts). */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = () => app.services.settings;

  app.get('/settings', { config: { ...owner, unlogged: true }, schema: { tags, summary: 'Providers, model routes and server settings', response: { 200: SettingsResponse, ...errorResponses } } }, async () => ({
    providers: settings().listProviders(),
    provider_types: settings().providerTypes(),
    routes: settings().listRoutes(),
    server: settings().server(),
  }));

  app.patch(
    '/settings/server',
    { config: owner, schema: { tags, summary: 'Change CORS origins, allowed hosts and request-log settings (applied at once)', body: ServerChange, response: { 200: ServerSetting, ...errorResponses } } },
    async (request) => settings().changeServer(request.body),
  );

  app.post(
    '/settings/providers',
    { config: owner, schema: { tags, summary: 'Add a provider (applied at once, kept across restarts)', body: NewProviderBody, response: { 200: ProviderSetting, ...errorResponses } } },
    async (request) => {
      const { id, ...input } = request.body;
      return settings().addProvider(id, input);
    },
  );

  app.put(
    '/settings/providers/:id',
    { config: owner, schema: { tags, summary: 'Edit a provider (an empty api_key keeps the current key)', params: ProviderParams, body: ProviderBody, response: { 200: ProviderSetting, ...errorResponses } } },
    async (request) => settings().editProvider(request.params.id, request.body),
  );

  app.delete(
    '/settings/providers/:id',
    { config: owner, schema: { tags, summary: 'Remove a provider no route uses (a config-file provider stays hidden until reset)', params: ProviderParams, response: { 200: Deleted, ...errorResponses } } },
    async (request) => {
      await settings().deleteProvider(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/settings/providers/:id/reset',
    { config: owner, schema: { tags, summary: "Undo the console's change to a config-file provider", params: ProviderParams, response: { 200: ProviderSetting, ...errorResponses } } },
    async (request) => settings().resetProvider(request.params.id),
  );

  app.put(
    '/settings/routes/:id',
    { config: owner, schema: { tags, summary: 'Add or replace a model route (applied at once, kept across restarts)', params: IdParams, body: RouteBody, response: { 200: RouteSetting, ...errorResponses } } },
    async (request) => settings().saveRoute({ ...request.body, id: request.params.id }),
  );

  app.delete(
    '/settings/routes/:id',
    { config: owner, schema: { tags, summary: 'Remove a model route (a config-file route stays removed until reset)', params: IdParams, response: { 200: Deleted, ...errorResponses } } },
    async (request) => {
      await settings().deleteRoute(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/settings/routes/:id/reset',
    { config: owner, schema: { tags, summary: "Undo the console's change to a config-file route", params: IdParams, response: { 200: RouteSetting, ...errorResponses } } },
    async (request) => settings().resetRoute(request.params.id),
  );

  app.post(
    '/settings/providers/:id/test',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Test a provider with one real minimal request',
        description: 'A one-token request on the given route, on the provider\'s first route with embeddings, chat or completions, or on its test_model; engines with none report their state. No retries; the circuit breaker is not touched. A failed test is a 200 with ok: false and the provider\'s error.',
        params: IdParams,
        querystring: Type.Object({ model: Type.Optional(Type.String({ minLength: 1, description: 'The route to test with' })) }),
        response: { 200: ProviderCheck, ...errorResponses },
      },
    },
    async (request) => settings().testProvider(request.params.id, request.query.model),
  );
};
