import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../_shared/common-schemas.js';
import {
  RouteBody,
  RouteSetting,
  ProviderSetting,
  NewProviderBody,
  ProviderBody,
  ServerSetting,
  ServerChange,
  SettingsResponse,
  ProviderCheck,
} from '../../wire/settings-schemas.js';
import { IdParams, ProviderParams, Deleted } from './settings-schemas.js';
import type { SettingsService } from '../../core/settings/settings-service.js';

const owner = { auth: 'owner' as const };
const tags = ['settings'];

/** Owner-only settings: the providers, model routes and server settings the console edits (stored in the database, applied at once, kept across restarts). */
export const settingsRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '/settings',
    {
      config: { ...owner, unlogged: true },
      schema: {
        tags,
        summary: 'Providers, model routes and server settings',
        response: { 200: SettingsResponse, ...errorResponses },
      },
    },
    async () => ({
      providers: settings.listProviders(),
      provider_types: settings.providerTypes(),
      routes: settings.listRoutes(),
      server: settings.server(),
    }),
  );

  app.patch(
    '/settings/server',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Change CORS origins, allowed hosts and request-log settings (applied at once)',
        body: ServerChange,
        response: { 200: ServerSetting, ...errorResponses },
      },
    },
    async (request) => settings.changeServer(request.body),
  );

  app.post(
    '/settings/providers',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Add a provider (applied at once, kept across restarts)',
        body: NewProviderBody,
        response: { 200: ProviderSetting, ...errorResponses },
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      return settings.addProvider(id, input);
    },
  );

  app.put(
    '/settings/providers/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Edit a provider (an empty api_key keeps the current key)',
        params: ProviderParams,
        body: ProviderBody,
        response: { 200: ProviderSetting, ...errorResponses },
      },
    },
    async (request) => settings.editProvider(request.params.id, request.body),
  );

  app.delete(
    '/settings/providers/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Remove a provider no route uses (a config-file provider stays hidden until reset)',
        params: ProviderParams,
        response: { 200: Deleted, ...errorResponses },
      },
    },
    async (request) => {
      await settings.deleteProvider(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/settings/providers/:id/reset',
    {
      config: owner,
      schema: {
        tags,
        summary: "Undo the console's change to a config-file provider",
        params: ProviderParams,
        response: { 200: ProviderSetting, ...errorResponses },
      },
    },
    async (request) => settings.resetProvider(request.params.id),
  );

  app.put(
    '/settings/routes/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Add or replace a model route (applied at once, kept across restarts)',
        params: IdParams,
        body: RouteBody,
        response: { 200: RouteSetting, ...errorResponses },
      },
    },
    async (request) => settings.saveRoute({ ...request.body, id: request.params.id }),
  );

  app.delete(
    '/settings/routes/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Remove a model route (a config-file route stays removed until reset)',
        params: IdParams,
        response: { 200: Deleted, ...errorResponses },
      },
    },
    async (request) => {
      await settings.deleteRoute(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );

  app.post(
    '/settings/routes/:id/reset',
    {
      config: owner,
      schema: {
        tags,
        summary: "Undo the console's change to a config-file route",
        params: IdParams,
        response: { 200: RouteSetting, ...errorResponses },
      },
    },
    async (request) => settings.resetRoute(request.params.id),
  );

  app.post(
    '/settings/providers/:id/test',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Test a provider with one real minimal request',
        description:
          "A one-token request on the given route, on the provider's first route with embeddings, chat or completions, or on its test_model; engines with none report their state. No retries; the circuit breaker is not touched. A failed test is a 200 with ok: false and the provider's error.",
        params: IdParams,
        querystring: Type.Object({
          model: Type.Optional(Type.String({ minLength: 1, description: 'The route to test with' })),
        }),
        response: { 200: ProviderCheck, ...errorResponses },
      },
    },
    async (request) => settings.testProvider(request.params.id, request.query.model),
  );
};
