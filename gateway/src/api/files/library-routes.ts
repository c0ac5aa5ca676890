import type { FastifyPluginAsync } from 'fastify';
import { registerNotServed } from '../_shared/not-served.js';

/**
 * Mistral's document libraries (`beta.libraries`, hosted retrieval for agents). Nothing here indexes
 * documents for agents, so every library path says so and what to use instead.
 */
export const libraryRoutes: FastifyPluginAsync = async (app) => {
  registerNotServed(
    app,
    'files',
    [
      {
        method: 'GET',
        url: '/v1/libraries',
        operationId: 'listLibraries',
        summary: 'Document libraries (not served: no hosted retrieval)',
      },
      {
        method: 'POST',
        url: '/v1/libraries',
        operationId: 'createLibrary',
        summary: 'Create a document library (not served: no hosted retrieval)',
      },
      { method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/v1/libraries/*' },
    ],
    (url) =>
      `${url.replace('/*', '/…')} is not served: this gateway has no document libraries (hosted retrieval for agents). Store files with POST /v1/files, ask about a document with POST /v1/chat/completions (a document_url part), or build retrieval on POST /v1/embeddings.`,
  );
};
