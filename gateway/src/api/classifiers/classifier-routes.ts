import type { FastifyPluginAsync } from 'fastify';
import { registerNotServed } from '../_shared/not-served.js';

/**
 * Mistral's moderation and classifier endpoints. No engine or provider here runs a classifier, so
 * each answers with an error that says so, instead of a bare 404 for an unknown URL.
 */
export const classifierRoutes: FastifyPluginAsync = async (app) => {
  registerNotServed(
    app,
    'classifiers',
    [
      {
        method: 'POST',
        url: '/v1/moderations',
        operationId: 'createModeration',
        summary: 'Moderation (not served: no moderation backend)',
      },
      {
        method: 'POST',
        url: '/v1/chat/moderations',
        operationId: 'createChatModeration',
        summary: 'Chat moderation (not served: no moderation backend)',
      },
      {
        method: 'POST',
        url: '/v1/classifications',
        operationId: 'createClassification',
        summary: 'Classification (not served: no classifier backend)',
      },
      {
        method: 'POST',
        url: '/v1/chat/classifications',
        operationId: 'createChatClassification',
        summary: 'Chat classification (not served: no classifier backend)',
      },
    ],
    (url) =>
      `${url} is not served: this gateway has no moderation or classification backend. Call a provider that offers it directly, or use a chat model with a JSON schema (response_format) to classify text.`,
  );
};
