import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../_shared/common-schemas.js';
import { modelCardSchema, toModelCard } from './model-card.js';
import { ArchiveResponse, ModelObject } from './model-schemas.js';
import { DescriptionText, MetadataOf, MetadataValue, NameText } from '../../wire/text-limits.js';
import type { ModelRegistry } from '../../core/routing/model-registry.js';

const ModelCard = modelCardSchema(ModelObject);
const ModelPath = Type.Object({ model: Type.String({ minLength: 1 }) });

/** GET /models and the fine-tuned model management of SPEC.md (update, archive, unarchive, delete). */
export const modelsRoutes: FastifyPluginAsyncTypebox<{ models: ModelRegistry }> = async (app, { models }) => {
  const list = async () => ({ object: 'list' as const, data: models.all().map((route) => models.info(route)) });
  const listSchema = {
    tags: ['models'],
    summary: 'List models',
    response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(ModelObject) }), ...errorResponses },
  };
  app.get('/models', { schema: listSchema }, list);
  app.get(
    '/v1/models',
    {
      schema: {
        tags: ['models'],
        summary: "List models (OpenAI and Mistral path: Mistral's model cards)",
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(ModelCard) }),
          ...errorResponses,
        },
      },
    },
    async () => ({
      object: 'list' as const,
      data: models.all().map((route) => toModelCard(models.info(route), route)),
    }),
  );

  app.get(
    '/v1/models/:model',
    {
      schema: {
        tags: ['models'],
        summary: 'Retrieve a model',
        params: ModelPath,
        response: { 200: ModelCard, ...errorResponses },
      },
    },
    async (request) => {
      const route = models.find(request.params.model);
      return toModelCard(models.info(route), route);
    },
  );

  app.patch(
    '/v1/models/:model',
    {
      schema: {
        tags: ['models'],
        summary: 'Update a fine-tuned model',
        params: ModelPath,
        body: Type.Object({
          metadata: Type.Optional(
            MetadataOf(
              Type.Union([MetadataValue(), Type.Null()]),
              'Merged into the stored metadata; a null value removes that key.',
            ),
          ),
          name: Type.Optional(NameText({ minLength: 0 })),
          description: Type.Optional(DescriptionText()),
        }),
        response: { 200: ModelObject, ...errorResponses },
      },
    },
    async (request) => {
      const { metadata, name, description } = request.body;
      const extra = { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) };
      await models.updateState(request.params.model, (current) => {
        const merged: Record<string, string> = { ...current.metadata, ...extra };
        for (const [key, value] of Object.entries(metadata ?? {})) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        return { ...current, metadata: merged };
      });
      return models.info(models.find(request.params.model));
    },
  );

  app.post(
    '/v1/models/:model/archive',
    {
      schema: {
        tags: ['models'],
        summary: 'Archive a fine-tuned model',
        params: ModelPath,
        response: { 200: ArchiveResponse, ...errorResponses },
      },
    },
    async (request) => {
      const state = await models.updateState(request.params.model, (current) => ({ ...current, archived: true }));
      return { id: state.id, object: 'model' as const, archived: true };
    },
  );
  app.delete(
    '/v1/models/:model/archive',
    {
      schema: {
        tags: ['models'],
        summary: 'Unarchive a fine-tuned model',
        params: ModelPath,
        response: { 200: ArchiveResponse, ...errorResponses },
      },
    },
    async (request) => {
      const state = await models.updateState(request.params.model, (current) => ({ ...current, archived: false }));
      return { id: state.id, object: 'model' as const, archived: false };
    },
  );
  app.delete(
    '/v1/models/:model',
    {
      config: { auth: 'owner' },
      schema: {
        tags: ['models'],
        summary: 'Delete a fine-tuned model (Owner)',
        params: ModelPath,
        response: {
          200: Type.Object({ id: Type.String(), object: Type.Literal('model'), deleted: Type.Boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const state = await models.updateState(request.params.model, (current) => ({ ...current, deleted: true }));
      return { id: state.id, object: 'model' as const, deleted: true };
    },
  );
};
