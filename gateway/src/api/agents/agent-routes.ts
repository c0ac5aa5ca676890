import { functionTools } from '../../core/agents/agent-tools.js';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DescriptionText, NameText, TEXT_LIMITS } from '../../wire/text-limits.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { AgentAlias, AgentRecord } from '../../core/agents/agents-service.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { pageOf } from '../_shared/page-of.js';
import { chatCompletionAnswer, toChatTurn } from '../chat/chat-completion.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { ChatBody, ChatCompletion, CompletionArgs, type ChatBodyType } from '../chat/chat-schemas.js';
import { AgentObject } from './agent-schemas.js';
import { AgentToolInput as AgentTool } from '../../wire/agent-tool-schemas.js';
import type { AgentsService } from '../../core/agents/agents-service.js';
import type { ChatService } from '../../core/chat/chat-service.js';
import type { ModelRegistry } from '../../core/routing/model-registry.js';
import type { IdGenerator } from '../../core/ids/id-generator.js';

const AgentFields = {
  name: NameText(),
  model: NameText(),
  instructions: Type.Optional(Type.Union([Type.String({ maxLength: TEXT_LIMITS.instructions }), Type.Null()])),
  description: Type.Optional(Type.Union([DescriptionText(), Type.Null()])),
  tools: Type.Optional(Type.Array(AgentTool, { maxItems: 128 })),
  completion_args: Type.Optional(Type.Union([CompletionArgs, Type.Null()])),
};

const AgentPath = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 200 }) });
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

const toAliasObject = (alias: AgentAlias) => ({
  alias: alias.alias,
  version: alias.version,
  created_at: iso(alias.created_at),
  updated_at: iso(alias.updated_at),
});
const AliasObject = Type.Object({
  alias: Type.String(),
  version: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const toAgentObject = (agent: AgentRecord) => ({
  id: agent.id,
  object: 'agent' as const,
  created: agent.created_at,
  name: agent.name,
  model: agent.model,
  instructions: agent.instructions,
  description: agent.description,
  tools: agent.tools,
  completion_args: agent.completion_args,
  version: agent.version,
  versions: Array.from({ length: agent.history.length + 1 }, (_, version) => version),
  created_at: iso(agent.created_at),
  updated_at: iso(agent.updated_at ?? agent.created_at),
  deployment_chat: false,
  source: 'api',
  handoffs: null,
  metadata: null,
});

/**
 * Agents (SPEC.md, and Mistral's beta agents API on the same paths): a named model configuration with
 * instructions and function tools, versioned on every update, and /v1/agents/completions to run one.
 */
export const agentRoutes: FastifyPluginAsyncTypebox<{
  agents: AgentsService;
  chat: ChatService;
  models: ModelRegistry;
  ids: IdGenerator;
}> = async (app, { agents, chat, models, ids }) => {
  app.post(
    '/v1/agents',
    {
      schema: {
        tags: ['agents'],
        summary:
          'Create an agent (built-in tools such as web_search are refused with 422 unsupported_tool: nothing here runs them)',
        body: Type.Object({ ...AgentFields, model: Type.Optional(AgentFields.model) }, { additionalProperties: true }),
        response: { 200: AgentObject, ...errorResponses },
      },
    },
    async (request) => toAgentObject(await agents.create(request.body, ownerScope(request.apiKey))),
  );

  app.get(
    '/v1/agents',
    {
      schema: {
        tags: ['agents'],
        summary:
          'List agents, newest first: {object: "list", data, has_more} paged by limit and after, or a plain array when paged by page and page_size (Mistral)',
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            after: Type.Optional(Type.String()),
            page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
            page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          },
          { additionalProperties: true },
        ),
        response: {
          200: Type.Union([
            Type.Object({ object: Type.Literal('list'), data: Type.Array(AgentObject), has_more: Type.Boolean() }),
            Type.Array(AgentObject),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const scope = ownerScope(request.apiKey);
      const { page, page_size: pageSize } = request.query;
      if (page !== undefined || pageSize !== undefined) {
        const size = pageSize ?? 20;
        return (await agents.list(size, undefined, scope, (page ?? 0) * size)).map(toAgentObject);
      }
      const limit = request.query.limit ?? 20;
      return pageOf(await agents.list(limit + 1, request.query.after, scope), limit, toAgentObject);
    },
  );

  app.get(
    '/v1/agents/:agent_id',
    {
      schema: {
        tags: ['agents'],
        summary: 'Read an agent: its active version, or agent_version (a number or an alias)',
        params: AgentPath,
        querystring: Type.Object(
          {
            agent_version: Type.Optional(
              Type.Union([Type.Integer({ minimum: 0 }), Type.String({ description: 'A version alias' })]),
            ),
          },
          { additionalProperties: true },
        ),
        response: { 200: AgentObject, ...errorResponses },
      },
    },
    async (request) =>
      toAgentObject(
        await agents.atVersion(request.params.agent_id, request.query.agent_version, ownerScope(request.apiKey)),
      ),
  );

  app.patch(
    '/v1/agents/:agent_id/version',
    {
      schema: {
        tags: ['agents'],
        operationId: 'activateAgentVersion',
        summary: 'Make a version the active one: served when a request names no version, until the next update',
        params: AgentPath,
        querystring: Type.Object({ version: Type.Integer({ minimum: 0 }) }, { additionalProperties: true }),
        response: { 200: AgentObject, ...errorResponses },
      },
    },
    async (request) =>
      toAgentObject(
        await agents.activateVersion(request.params.agent_id, request.query.version, ownerScope(request.apiKey)),
      ),
  );

  app.get(
    '/v1/agents/:agent_id/aliases',
    {
      schema: {
        tags: ['agents'],
        operationId: 'listAgentVersionAliases',
        summary: "An agent's version aliases, by name",
        params: AgentPath,
        response: { 200: Type.Array(AliasObject), ...errorResponses },
      },
    },
    async (request) => (await agents.aliases(request.params.agent_id, ownerScope(request.apiKey))).map(toAliasObject),
  );

  app.put(
    '/v1/agents/:agent_id/aliases',
    {
      schema: {
        tags: ['agents'],
        operationId: 'setAgentVersionAlias',
        summary: 'Name a version with an alias (an existing alias moves to the version)',
        params: AgentPath,
        querystring: Type.Object(
          { alias: Type.String({ minLength: 1, maxLength: 200 }), version: Type.Integer({ minimum: 0 }) },
          { additionalProperties: true },
        ),
        response: { 200: AliasObject, ...errorResponses },
      },
    },
    async (request) =>
      toAliasObject(
        await agents.setAlias(
          request.params.agent_id,
          request.query.alias,
          request.query.version,
          ownerScope(request.apiKey),
        ),
      ),
  );

  app.delete(
    '/v1/agents/:agent_id/aliases',
    {
      schema: {
        tags: ['agents'],
        operationId: 'deleteAgentVersionAlias',
        summary: 'Delete a version alias (204; 404 when the agent has no such alias)',
        params: AgentPath,
        querystring: Type.Object(
          { alias: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: true },
        ),
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await agents.deleteAlias(request.params.agent_id, request.query.alias, ownerScope(request.apiKey));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/agents/:agent_id/versions',
    {
      schema: {
        tags: ['agents'],
        summary: "List an agent's versions, newest first",
        params: AgentPath,
        response: { 200: Type.Array(AgentObject), ...errorResponses },
      },
    },
    async (request) => (await agents.versions(request.params.agent_id, ownerScope(request.apiKey))).map(toAgentObject),
  );

  app.get(
    '/v1/agents/:agent_id/versions/:version',
    {
      schema: {
        tags: ['agents'],
        summary: 'Read one version of an agent',
        params: Type.Object({ ...AgentPath.properties, version: Type.Integer({ minimum: 0 }) }),
        response: { 200: AgentObject, ...errorResponses },
      },
    },
    async (request) =>
      toAgentObject(
        await agents.atVersion(request.params.agent_id, request.params.version, ownerScope(request.apiKey)),
      ),
  );

  app.patch(
    '/v1/agents/:agent_id',
    {
      schema: {
        tags: ['agents'],
        summary: 'Update an agent (makes its next version)',
        params: AgentPath,
        body: Type.Partial(Type.Object(AgentFields), { additionalProperties: true }),
        response: { 200: AgentObject, ...errorResponses },
      },
    },
    async (request) =>
      toAgentObject(await agents.update(request.params.agent_id, request.body, ownerScope(request.apiKey))),
  );

  app.delete(
    '/v1/agents/:agent_id',
    {
      schema: {
        tags: ['agents'],
        summary: 'Delete an agent (204)',
        params: AgentPath,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await agents.delete(request.params.agent_id, ownerScope(request.apiKey));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/agents/completions',
    {
      config: { billable: 'at-turn' },
      schema: {
        tags: ['agents'],
        summary: "Run an agent: its instructions as the system message, its function tools, the agent's model",
        body: Type.Intersect([Type.Object({ agent_id: Type.String({ minLength: 1 }) }), ChatBody]),
        response: { 200: ChatCompletion, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { agent_id: agentId, ...rest } = request.body as ChatBodyType & { agent_id: string };
      const agent = await agents.atVersion(agentId, undefined, ownerScope(request.apiKey));
      if (!rest.messages)
        throw new GatewayError(422, 'invalid_value', "Invalid request: 'messages' is required.", { param: 'messages' });
      const messages = agent.instructions
        ? [{ role: 'system' as const, content: agent.instructions }, ...rest.messages]
        : rest.messages;
      // Connector tools run only in conversations (the server-side tool loop); a completion gets the function tools.
      const tools = [...functionTools(agent.tools), ...(rest.tools ?? [])];
      const body: ChatBodyType = {
        ...agent.completion_args,
        ...rest,
        model: agent.model,
        ...(tools.length > 0 ? { tools } : {}),
      };
      const signal = clientAbortSignal(reply);
      const outcome = await chat.complete(
        models.resolve(agent.model, 'chat'),
        toChatTurn(body, messages),
        body.stream === true,
        request.billing,
        signal,
      );
      return chatCompletionAnswer(request, reply, body, outcome, ids);
    },
  );
};
