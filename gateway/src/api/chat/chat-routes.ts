import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { chatCompletionAnswer, toChatTurn } from './chat-completion.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { endUserOf, stickyKey } from '../_shared/sticky-key.js';
import { ChatBody, ChatCompletion } from './chat-schemas.js';
import { documentQuestion } from '../documents/document-question.js';
import type { ChatService } from '../../core/chat/chat-service.js';
import type { IdGenerator } from '../../core/ids/id-generator.js';
import type { DocumentService } from '../../core/documents/document-service.js';

/**
 * POST /v1/chat/completions (and /chat/completions): chat on a chat route, plain or streamed, or
 * document question answering when the body carries `document` + `question`, a message carries a
 * `document_url` part, or the model is a documents (OCR) model.
 */
export const chatRoutes: FastifyPluginAsyncTypebox<{
  chat: ChatService;
  documents: DocumentService;
  ids: IdGenerator;
}> = async (app, { chat, documents, ids }) => {
  const schema = {
    tags: ['chat'],
    summary: 'Chat completion (stream: true for server-sent chunks); document QnA with document + question',
    body: ChatBody,
    response: { 200: ChatCompletion, ...errorResponses },
  };
  for (const path of ['/v1/chat/completions', '/chat/completions']) {
    app.post(
      path,
      { config: { billable: true }, schema: path === '/chat/completions' ? { ...schema, hide: true } : schema },
      async (request, reply) => {
        const body = request.body;
        const hasDocumentPart = (body.messages ?? []).some(
          (message) => Array.isArray(message.content) && message.content.some((part) => part.type === 'document_url'),
        );
        const asksAboutDocument = body.document !== undefined || body.question !== undefined || hasDocumentPart;
        const target = chat.target({
          model: body.model,
          named: request.billing.namedRoute,
          asksAboutDocument,
          hasDocumentPart,
        });
        if (target.useCase === 'documents')
          return documentQuestion(documents, request, reply, body, target.route, target.writer);
        if (!body.messages)
          throw new GatewayError(422, 'invalid_value', "Invalid request: 'messages' is required.", {
            param: 'messages',
          });
        const signal = clientAbortSignal(reply);
        const turn = toChatTurn(body, body.messages);
        const outcome = await chat.complete(target.route, turn, body.stream === true, request.billing, signal, {
          cache: {
            keyId: request.apiKey?.id,
            cacheControl: request.headers['cache-control'],
            endUser: () => endUserOf(body),
          },
          stickyKey: () => stickyKey(request, body),
        });
        return chatCompletionAnswer(request, reply, body, outcome, ids);
      },
    );
  }
};
