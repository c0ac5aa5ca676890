import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DescriptionText, NameText } from '../../wire/text-limits.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { ArchiveResponse } from './model-schemas.js';
import type { ModelRegistry } from '../../core/routing/model-registry.js';

const ModelIdPath = Type.Object({ model_id: Type.String({ minLength: 1 }) });

const FineTunedModel = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('model'),
    created: Type.Integer(),
    owned_by: Type.String(),
    workspace_id: Type.String(),
    root: Type.String(),
    root_version: Type.String(),
    archived: Type.Boolean(),
    name: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    capabilities: Type.Object({
      completion_chat: Type.Boolean(),
      completion_fim: Type.Boolean(),
      function_calling: Type.Boolean(),
      fine_tuning: Type.Boolean(),
      classification: Type.Boolean(),
    }),
    max_context_length: Type.Integer(),
    aliases: Type.Array(Type.String()),
    job: Type.Union([Type.String(), Type.Null()]),
    model_type: Type.Literal('completion'),
  },
  { additionalProperties: true },
);

/** Mistral's fine-tuned model management paths, beside SPEC's /v1/models/{model}: update, archive, unarchive. */
export const mistralFineTuningRoutes: FastifyPluginAsyncTypebox<{ models: ModelRegistry }> = async (
  app,
  { models },
) => {
  const fineTunedModel = (id: string) => {
    const route = models.find(id);
    const info = models.info(route);
    return {
      id: info.id,
      object: 'model' as const,
      created: info.created,
      owned_by: info.owned_by,
      workspace_id: 'default',
      root: route.upstreamModel,
      root_version: '',
      archived: info.archived,
      name: info.metadata.name ?? null,
      description: info.metadata.description ?? null,
      capabilities: {
        completion_chat: info.capabilities.includes('chat'),
        completion_fim: info.capabilities.includes('completions'),
        function_calling: info.capabilities.includes('chat'),
        fine_tuning: false,
        classification: false,
      },
      max_context_length: 32768,
      aliases: info.aliases,
      job: null,
      model_type: 'completion' as const,
    };
  };

  app.patch(
    '/v1/fine_tuning/models/:model_id',
    {
      schema: {
        tags: ['models'],
        operationId: 'updateFineTunedModel',
        summary: 'Update a fine-tuned model (Mistral path)',
        params: ModelIdPath,
        body: Type.Object({
          name: Type.Optional(Type.Union([NameText({ minLength: 0 }), Type.Null()])),
          description: Type.Optional(Type.Union([DescriptionText(), Type.Null()])),
        }),
        response: { 200: FineTunedModel, ...errorResponses },
      },
    },
    async (request) => {
      const { name, description } = request.body ?? {};
      await models.updateState(request.params.model_id, (current) => {
        const metadata = { ...current.metadata };
        for (const [key, value] of Object.entries({ name, description })) {
          if (value === null) delete metadata[key];
          else if (value !== undefined) metadata[key] = value;
        }
        return { ...current, metadata };
      });
      return fineTunedModel(request.params.model_id);
    },
  );

  for (const [method, archived] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/v1/fine_tuning/models/:model_id/archive',
      schema: {
        tags: ['models'],
        operationId: archived ? 'archiveFineTunedModel' : 'unarchiveFineTunedModel',
        summary: archived ? 'Archive a fine-tuned model (Mistral path)' : 'Unarchive a fine-tuned model (Mistral path)',
        params: ModelIdPath,
        response: { 200: ArchiveResponse, ...errorResponses },
      },
      handler: async (request) => {
        const state = await models.updateState(request.params.model_id, (current) => ({ ...current, archived }));
        return { id: state.id, object: 'model' as const, archived };
      },
    });
  }
};
