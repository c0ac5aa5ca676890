import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ResponseDeleted, ResponseObject, ResponsesBody, StoredInputItem } from '../../wire/responses-schemas.js';
import type { ResponsesCaller } from '../../core/responses/responses-service.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { sendEventStream, type StreamEnding } from '../_shared/event-stream.js';
import type { ResponsesService } from '../../core/responses/responses-service.js';

const ResponsePath = Type.Object({ response_id: Type.String({ minLength: 1, maxLength: 200 }) });

const caller = (request: FastifyRequest): ResponsesCaller => ({
  keyId: request.apiKey?.id ?? null,
  owner: request.apiKey?.role === 'owner',
});

/** Responses streams end with response.completed (no `[DONE]`); a failure after the start is an `error` event. */
const RESPONSES_ENDING: StreamEnding = {
  done: (writer) => writer.finish(),
  async fail(writer, error) {
    await writer.sendEvent('error', {
      type: 'error',
      object: 'error',
      message: error.message,
      code: error.code,
      param: error.param ?? null,
      error_type: error.type,
    });
    await writer.finish();
  },
};

/** OpenAI's Responses API: POST /v1/responses (plain or streamed), GET / DELETE /v1/responses/{id}, and its input items. */
export const responsesRoutes: FastifyPluginAsyncTypebox<{ responses: ResponsesService }> = async (
  app,
  { responses },
) => {
  app.post(
    '/v1/responses',
    {
      config: { billable: 'at-turn' },
      schema: {
        tags: ['responses'],
        operationId: 'createResponse',
        summary: 'Create a model response (OpenAI Responses API; stream: true for typed server-sent events)',
        body: ResponsesBody,
        response: { 200: ResponseObject, ...errorResponses },
      },
    },
    async (request, reply) => {
      const signal = clientAbortSignal(reply);
      const outcome = await responses.create(request.body, caller(request), signal, request.billing);
      if (outcome.kind === 'json') return outcome.response;
      return sendEventStream(
        request,
        reply,
        'responses',
        async (writer) => {
          for await (const event of outcome.events) {
            if (writer.closed) break;
            await writer.sendEvent(event.type, event);
          }
        },
        RESPONSES_ENDING,
      );
    },
  );

  app.get(
    '/v1/responses/:response_id',
    {
      schema: {
        tags: ['responses'],
        operationId: 'getResponse',
        summary: 'Retrieve a stored response',
        params: ResponsePath,
        response: { 200: ResponseObject, ...errorResponses },
      },
    },
    async (request) => responses.get(request.params.response_id, caller(request)),
  );

  app.delete(
    '/v1/responses/:response_id',
    {
      schema: {
        tags: ['responses'],
        operationId: 'deleteResponse',
        summary: 'Delete a stored response',
        params: ResponsePath,
        response: { 200: ResponseDeleted, ...errorResponses },
      },
    },
    async (request) => responses.delete(request.params.response_id, caller(request)),
  );

  app.get(
    '/v1/responses/:response_id/input_items',
    {
      schema: {
        tags: ['responses'],
        operationId: 'listResponseInputItems',
        summary: "List a stored response's input items (newest first unless order=asc)",
        params: ResponsePath,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          after: Type.Optional(Type.String()),
          order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        }),
        response: {
          200: Type.Object({
            object: Type.Literal('list'),
            data: Type.Array(StoredInputItem),
            first_id: Type.Union([Type.String(), Type.Null()]),
            last_id: Type.Union([Type.String(), Type.Null()]),
            has_more: Type.Boolean(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => responses.inputItems(request.params.response_id, caller(request), request.query),
  );
};
