import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { errorResponses } from '../_shared/common-schemas.js';

const PATHS = [
  { url: '/v1/moderations', operationId: 'createModeration', summary: 'Moderation (not served: no moderation backend)' },
  { url: '/v1/chat/moderations', operationId: 'createChatModeration', summary: 'Chat moderation (not served: no moderation backend)' },
  { url: '/v1/classifications', operationId: 'createClassification', summary: 'Classification (not served: no classifier backend)' },
  { url: '/v1/chat/classifications', operationId: 'createChatClassification', summary: 'Chat classification (not served: no classifier backend)' },
];

/**
 * Mistral's moderation and classifier endpoints. No engine or provider here runs a classifier, so
 * each answers with an error that says so, instead of a bare 404 for an unknown URL.
 */
export const classifierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { url, operationId, summary } of PATHS) {
    app.post(url, { schema: { tags: ['classifiers'], operationId, summary, response: { ...errorResponses } } }, async () => {
      throw new GatewayError(
        404,
        'capability_not_served',
        `${url} is not served: this gateway has no moderation or classification backend. Call a provider that offers it directly, or use a chat model with a JSON schema (response_format) to classify text.`,
        { param: null },
      );
    });
  }
};
