import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DescriptionText, MetadataOf, MetadataValue, NameText, TEXT_LIMITS } from '../../wire/text-limits.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { ConversationRecord, PendingTurn } from '../../core/agents/conversations-service.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { toGatewayError } from '../../core/errors/provider-error-mapping.js';
import { registerNotServed } from '../_shared/not-served.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { sendEventStream, type StreamEnding } from '../_shared/event-stream.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { CompletionArgs } from '../chat/chat-schemas.js';
import { AgentToolInput as AgentTool } from '../../wire/agent-tool-schemas.js';
import { Usage } from '../../wire/usage-schema.js';
import type { ConversationsService } from '../../core/agents/conversations-service.js';

const Inputs = Type.Union(
  [
    Type.String({ minLength: 1 }),
    Type.Array(Type.Record(Type.String(), Type.Unknown()), { minItems: 1, maxItems: 1000 }),
  ],
  {
    description:
      "A user message's text, or entries: message.input {role, content} and function.result {tool_call_id, result}",
  },
);
const Turn = {
  inputs: Inputs,
  stream: Type.Optional(
    Type.Boolean({
      description:
        "true: the turn as Mistral's conversation server-sent events (conversation.response.started, message.output.delta, function.call.delta, conversation.response.done or .error)",
    }),
  ),
  store: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  completion_args: Type.Optional(Type.Union([CompletionArgs, Type.Null()])),
};
/** Mistral's conversation metadata: values of any plain JSON type, within the metadata limits. */
const ConversationMetadata = MetadataOf(Type.Union([MetadataValue(), Type.Number(), Type.Boolean(), Type.Null()]));

const StartBody = Type.Object(
  {
    ...Turn,
    model: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    agent_id: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    agent_version: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String(), Type.Null()])),
    instructions: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.instructions }), Type.Null()])),
    tools: Type.Optional(Type.Union([Type.Array(AgentTool, { maxItems: 128 }), Type.Null()])),
    name: Type.Optional(Type.Union([NameText({ minLength: 0 }), Type.Null()])),
    description: Type.Optional(Type.Union([DescriptionText(), Type.Null()])),
    metadata: Type.Optional(Type.Union([ConversationMetadata, Type.Null()])),
  },
  { additionalProperties: true },
);
const AppendBody = Type.Object(
  {
    ...Turn,
    inputs: Type.Optional(Inputs),
    tool_confirmations: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Object({
            tool_call_id: Type.String({ minLength: 1 }),
            confirmation: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
          }),
          { maxItems: 128 },
        ),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: true },
);
const RestartBody = Type.Object(
  {
    ...Turn,
    from_entry_id: Type.String({ minLength: 1 }),
    metadata: Type.Optional(Type.Union([ConversationMetadata, Type.Null()])),
  },
  { additionalProperties: true },
);

const Entry = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A conversation entry: {object: "entry", type, id, created_at, …}',
});
const ConversationResponse = Type.Object({
  object: Type.Literal('conversation.response'),
  conversation_id: Type.String(),
  outputs: Type.Array(Entry),
  usage: Usage,
});
const Conversation = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'A conversation: {object: "conversation", id, created_at, updated_at, and model, instructions, tools or agent_id, agent_version}',
});
const ConversationPath = Type.Object({ conversation_id: Type.String({ minLength: 1, maxLength: 200 }) });

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

function toConversationObject(conversation: ConversationRecord) {
  const common = {
    object: 'conversation',
    id: conversation.id,
    name: conversation.name,
    description: conversation.description,
    metadata: conversation.metadata,
    created_at: iso(conversation.created_at),
    updated_at: iso(conversation.updated_at),
  };
  return conversation.agent_id
    ? { ...common, agent_id: conversation.agent_id, agent_version: conversation.agent_version }
    : { ...common, model: conversation.model, instructions: conversation.instructions, tools: conversation.tools };
}

/** Conversation streams carry no `[DONE]`; a failure after the start is a conversation.response.error event (code: the HTTP status). */
const CONVERSATION_ENDING: StreamEnding = { done: (writer) => writer.finish(), fail: (writer) => writer.finish() };

/** Answers a turn: JSON, or Mistral's conversation events over SSE when the client streams. */
async function answerTurn(
  request: FastifyRequest,
  reply: FastifyReply,
  turn: PendingTurn,
  stream: boolean | undefined,
) {
  const signal = clientAbortSignal(reply);
  if (!stream) return { object: 'conversation.response' as const, ...(await turn.run(request.billing, signal)) };
  const events = await turn.stream(request.billing, signal);
  return sendEventStream(
    request,
    reply,
    'conversations',
    async (writer) => {
      try {
        for await (const event of events) {
          if (writer.closed) break;
          await writer.sendEvent(event.type, event);
        }
      } catch (error) {
        const mapped = toGatewayError(error, 'conversations');
        request.log.warn({ code: mapped.code, msg: mapped.message }, 'conversation stream failed after it started');
        await writer.sendEvent('conversation.response.error', {
          type: 'conversation.response.error',
          created_at: new Date().toISOString(),
          message: mapped.message,
          code: mapped.status,
        });
      }
    },
    CONVERSATION_ENDING,
  );
}

const OPENAI_CONVERSATIONS =
  "OpenAI's Conversations API is not served: /v1/conversations here is Mistral's conversations API ({inputs, model or agent_id}). With the openai SDK, continue a conversation on the Responses API with previous_response_id.";

/** OpenAI's SDK posts `{items?, metadata?}` to the same path; say which API lives here instead of "'inputs' is required". */
async function refuseOpenAiConversations(request: FastifyRequest) {
  const body = request.body as Record<string, unknown> | null;
  const fields = body && typeof body === 'object' ? Object.keys(body) : [];
  if (!fields.includes('inputs') && (fields.includes('items') || (fields.length === 1 && fields[0] === 'metadata'))) {
    throw new GatewayError(404, 'capability_not_served', OPENAI_CONVERSATIONS, { param: null });
  }
}

/** Mistral's conversations API (beta): start, append, restart, read, list, history, messages, delete. */
export const conversationRoutes: FastifyPluginAsyncTypebox<{ conversations: ConversationsService }> = async (
  app,
  { conversations },
) => {
  const tags = ['agents'];

  app.post(
    '/v1/conversations',
    {
      config: { billable: 'at-turn' },
      preValidation: refuseOpenAiConversations,
      schema: {
        tags,
        operationId: 'startConversation',
        summary: 'Start a conversation with a model or an agent, and run its first turn',
        body: StartBody,
        response: { 200: ConversationResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      return answerTurn(
        request,
        reply,
        await conversations.start(request.body, ownerScope(request.apiKey)),
        request.body.stream,
      );
    },
  );

  app.get(
    '/v1/conversations',
    {
      schema: {
        tags,
        operationId: 'listConversations',
        summary: 'List conversations, newest first',
        querystring: Type.Object(
          {
            page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
            page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
          },
          { additionalProperties: true },
        ),
        response: { 200: Type.Array(Conversation), ...errorResponses },
      },
    },
    async (request) =>
      (
        await conversations.list(request.query.page ?? 0, request.query.page_size ?? 100, ownerScope(request.apiKey))
      ).map(toConversationObject),
  );

  app.get(
    '/v1/conversations/:conversation_id',
    {
      schema: {
        tags,
        operationId: 'getConversation',
        summary: 'Read a conversation',
        params: ConversationPath,
        response: { 200: Conversation, ...errorResponses },
      },
    },
    async (request) =>
      toConversationObject(await conversations.get(request.params.conversation_id, ownerScope(request.apiKey))),
  );

  app.delete(
    '/v1/conversations/:conversation_id',
    {
      schema: {
        tags,
        operationId: 'deleteConversation',
        summary: 'Delete a conversation (204)',
        params: ConversationPath,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await conversations.delete(request.params.conversation_id, ownerScope(request.apiKey));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/conversations/:conversation_id',
    {
      config: { billable: 'at-turn' },
      schema: {
        tags,
        operationId: 'appendConversation',
        summary: 'Append inputs to a conversation and run the next turn',
        params: ConversationPath,
        body: AppendBody,
        response: { 200: ConversationResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      return answerTurn(
        request,
        reply,
        await conversations.append(request.params.conversation_id, request.body, ownerScope(request.apiKey)),
        request.body.stream,
      );
    },
  );

  app.post(
    '/v1/conversations/:conversation_id/restart',
    {
      config: { billable: 'at-turn' },
      schema: {
        tags,
        operationId: 'restartConversation',
        summary: 'Start a new conversation from an entry of this one, with new inputs',
        params: ConversationPath,
        body: RestartBody,
        response: { 200: ConversationResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      return answerTurn(
        request,
        reply,
        await conversations.restart(request.params.conversation_id, request.body, ownerScope(request.apiKey)),
        request.body.stream,
      );
    },
  );

  app.get(
    '/v1/conversations/:conversation_id/history',
    {
      schema: {
        tags,
        operationId: 'getConversationHistory',
        summary: "A conversation's entries, oldest first",
        params: ConversationPath,
        response: {
          200: Type.Object({
            object: Type.Literal('conversation.history'),
            conversation_id: Type.String(),
            entries: Type.Array(Entry),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const conversation = await conversations.get(request.params.conversation_id, ownerScope(request.apiKey));
      return {
        object: 'conversation.history' as const,
        conversation_id: conversation.id,
        entries: conversation.entries,
      };
    },
  );

  app.get(
    '/v1/conversations/:conversation_id/messages',
    {
      schema: {
        tags,
        operationId: 'getConversationMessages',
        summary: "A conversation's messages (its message entries), oldest first",
        params: ConversationPath,
        response: {
          200: Type.Object({
            object: Type.Literal('conversation.messages'),
            conversation_id: Type.String(),
            messages: Type.Array(Entry),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const conversation = await conversations.get(request.params.conversation_id, ownerScope(request.apiKey));
      return {
        object: 'conversation.messages' as const,
        conversation_id: conversation.id,
        messages: conversation.entries.filter(
          (entry) => entry.type === 'message.input' || entry.type === 'message.output',
        ),
      };
    },
  );

  registerNotServed(
    app,
    'agents',
    [
      { method: ['GET', 'POST'], url: '/v1/conversations/:conversation_id/items' },
      { method: ['GET', 'DELETE'], url: '/v1/conversations/:conversation_id/items/*' },
    ],
    () => OPENAI_CONVERSATIONS,
  );
};
