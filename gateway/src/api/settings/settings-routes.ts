import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ModelConfigSchema } from '../../wire/model-route-schema.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { BreakerObject } from '../status/status-schemas.js';

const { id: _id, ...routeFields } = ModelConfigSchema.properties;
const RouteBody = Type.Object(routeFields, { additionalProperties: false });

const RouteSetting = Type.Object({
  ...ModelConfigSchema.properties,
  source: Type.Union([Type.Literal('config'), Type.Literal('console')], { description: 'config: as in the config file; console: added or edited in the console (stored in the database)' }),
  in_config: Type.Boolean({ description: 'The config file defines a route with this id (POST .../reset brings it back)' }),
});

const ProviderSetting = Type.Object({
  id: Type.String(),
  type: Type.String(),
  base_url: Type.Optional(Type.String()),
  has_api_key: Type.Boolean({ description: 'Whether the provider has a key; the key itself is never returned' }),
  state: Type.String(),
  detail: Type.Optional(Type.String()),
  breaker: BreakerObject,
  routes: Type.Array(Type.String()),
});

const SettingsResponse = Type.Object({
  providers: Type.Array(ProviderSetting),
  routes: Type.Array(RouteSetting),
  server: Type.Object(
    {
      config_path: Type.Union([Type.String(), Type.Null()]),
      data_dir: Type.String(),
      cors_origins: Type.Array(Type.String()),
      allowed_hosts: Type.Array(Type.String()),
      request_log_bodies: Type.Boolean(),
      request_log_retention_days: Type.Number(),
    },
    { description: 'Read from the config file and environment at start; change them there and restart' },
  ),
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
const owner = { auth: 'owner' as const };
const tags = ['settings'];

/** Owner-only settings: the providers and model routes the console edits (stored in the database, applied at once) and the server settings it shows. */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = () => app.services.settings;

  app.get('/settings', { config: { ...owner, unlogged: true }, schema: { tags, summary: 'Providers, model routes and server settings', response: { 200: SettingsResponse, ...errorResponses } } }, async () => ({
    providers: settings().listProviders(),
    routes: settings().listRoutes(),
    server: settings().server(),
  }));

  app.put(
    '/settings/routes/:id',
    { config: owner, schema: { tags, summary: 'Add or replace a model route (applied at once, kept across restarts)', params: IdParams, body: RouteBody, response: { 200: RouteSetting, ...errorResponses } } },
    async (request) => settings().saveRoute({ ...request.body, id: request.params.id }),
  );

  app.delete(
    '/settings/routes/:id',
    { config: owner, schema: { tags, summary: 'Remove a model route (a config-file route stays removed until reset)', params: IdParams, response: { 200: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }), ...errorResponses } } },
    async (request) => {
      settings().deleteRoute(request.params.id);
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
        description: 'A one-token request on the given route, or on the provider\'s first route with embeddings, chat or completions; engines with none report their state. No retries; the circuit breaker is not touched. A failed test is a 200 with ok: false and the provider\'s error.',
        params: IdParams,
        querystring: Type.Object({ model: Type.Optional(Type.String({ minLength: 1, description: 'The route to test with' })) }),
        response: { 200: ProviderCheck, ...errorResponses },
      },
    },
    async (request) => settings().testProvider(request.params.id, request.query.model),
  );
};
