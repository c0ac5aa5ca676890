import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_CHAT_MODEL, DEFAULT_OCR_MODEL } from '../../wire/default-models.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { chatCompletion } from './chat-completion.js';
import { ChatBody, ChatCompletion } from './chat-schemas.js';
import { documentQuestion } from '../documents/document-question.js';

/**
 * POST /v1/chat/completions (and /chat/completions): chat on a chat route, plain or streamed, or
 * document question answering when the body carries `document` + `question`, a message carries a
 * `document_url` part, or the model is a documents (OCR) model.
 */
export const chatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = {
    tags: ['chat'],
    summary: 'Chat completion (stream: true for server-sent chunks); document QnA with document + question',
    body: ChatBody,
    response: { 200: ChatCompletion, ...errorResponses },
  };
  for (const path of ['/v1/chat/completions', '/chat/completions']) {
    app.post(path, { config: { billable: true }, schema: path === '/chat/completions' ? { ...schema, hide: true } : schema }, async (request, reply) => {
      const body = request.body;
      const { models } = app.services;
      const hasDocumentPart = (body.messages ?? []).some((message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'document_url'));
      const isDocumentRequest = body.document !== undefined || body.question !== undefined || hasDocumentPart;
      const modelName = body.model ?? (isDocumentRequest ? DEFAULT_OCR_MODEL : DEFAULT_CHAT_MODEL);
      const found = models.find(modelName);
      if (isDocumentRequest || (found.capabilities.has('documents') && !found.capabilities.has('chat'))) {
        // A document_url part sent to a chat model is read by the documents model; the chat model writes the answer.
        const documentsModel = hasDocumentPart && !found.capabilities.has('documents') ? DEFAULT_OCR_MODEL : modelName;
        return documentQuestion(request, reply, body, models.resolve(documentsModel, 'documents'));
      }
      if (!body.messages) throw new GatewayError(422, 'invalid_value', "Invalid request: 'messages' is required.", { param: 'messages' });
      return chatCompletion(request, reply, body, body.messages, models.resolve(modelName, 'chat'));
    });
  }
};
