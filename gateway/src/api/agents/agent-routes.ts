import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import { functionTools } from '../../core/agents/agent-tools.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import { ownerScope } from '../../core/account/resource-owner.js';
import type { OwnerScope } from '../../store/owner-scope.js';
import type { AgentRecord } from '../../store/agents-repository.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { pageOf } from '../_shared/page-of.js';
import { chatCompletion } from '../chat/chat-completion.js';
import { ChatBody, ChatCompletion, type ChatBodyType } from '../chat/chat-schemas.js';
import { AgentObject } from './agent-schemas.js';
import { AgentTool } from '../../wire/agent-tool-schemas.js';

const AgentFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  model: Type.String({ minLength: 1 }),
  instructions: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  tools: Type.Optional(Type.Array(AgentTool, { maxItems: 128 })),
};

const AgentPath = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 200 }) });

const toAgentObject = (agent: AgentRecord) => ({
  id: agent.id,
  object: 'agent' as const,
  created: agent.created_at,
  name: agent.name,
  model: agent.model,
  instructions: agent.instructions,
  description: agent.description,
  tools: agent.tools,
});

/** Agents (SPEC.md): a named model configuration with instructions and tools, and Mistral's /v1/agents/completions to run one. */
export const agentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { agents, models } = app.services;
  const find = (id: string, scope: OwnerScope) => {
    const agent = agents.get(id, scope);
    if (!agent) throw new GatewayError(404, 'agent_not_found', `No agent with id "${id}".`, { param: 'agent_id' });
    return agent;
  };

  app.post(
    '/v1/agents',
    { schema: { tags: ['agents'], summary: 'Create an agent', body: Type.Object({ ...AgentFields, model: Type.Optional(AgentFields.model) }, { additionalProperties: true }), response: { 200: AgentObject, ...errorResponses } } },
    async (request) => {
      const body = request.body;
      const model = body.model ?? DEFAULT_CHAT_MODEL;
      models.resolve(model, 'chat');
      const agent: AgentRecord = { id: newId('ag_'), name: body.name, model, instructions: body.instructions ?? null, description: body.description ?? null, tools: body.tools ?? [], created_at: Math.floor(Date.now() / 1000), key_id: request.apiKey?.id ?? null };
      agents.insert(agent);
      return toAgentObject(agent);
    },
  );

  app.get(
    '/v1/agents',
    {
      schema: {
        tags: ['agents'],
        summary: 'List agents, newest first',
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })), after: Type.Optional(Type.String()) }),
        response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(AgentObject), has_more: Type.Boolean() }), ...errorResponses },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 20;
      return pageOf(agents.list(limit + 1, request.query.after, ownerScope(request.apiKey)), limit, toAgentObject);
    },
  );

  app.get('/v1/agents/:agent_id', { schema: { tags: ['agents'], params: AgentPath, response: { 200: AgentObject, ...errorResponses } } }, async (request) => toAgentObject(find(request.params.agent_id, ownerScope(request.apiKey))));

  app.patch(
    '/v1/agents/:agent_id',
    { schema: { tags: ['agents'], summary: 'Update an agent', params: AgentPath, body: Type.Partial(Type.Object(AgentFields), { additionalProperties: false }), response: { 200: AgentObject, ...errorResponses } } },
    async (request) => {
      const scope = ownerScope(request.apiKey);
      find(request.params.agent_id, scope);
      if (request.body.model) models.resolve(request.body.model, 'chat');
      agents.update(request.params.agent_id, request.body);
      return toAgentObject(find(request.params.agent_id, scope));
    },
  );

  app.delete(
    '/v1/agents/:agent_id',
    { schema: { tags: ['agents'], params: AgentPath, response: { 200: Type.Object({ id: Type.String(), object: Type.Literal('agent'), deleted: Type.Boolean() }), ...errorResponses } } },
    async (request) => {
      find(request.params.agent_id, ownerScope(request.apiKey));
      agents.delete(request.params.agent_id);
      return { id: request.params.agent_id, object: 'agent' as const, deleted: true };
    },
  );

  app.post(
    '/v1/agents/completions',
    {
      config: { billable: true },
      schema: {
        tags: ['agents'],
        summary: "Run an agent: its instructions as the system message, its function tools, the agent's model",
        body: Type.Intersect([Type.Object({ agent_id: Type.String({ minLength: 1 }) }), ChatBody]),
        response: { 200: ChatCompletion, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { agent_id: agentId, ...rest } = request.body as ChatBodyType & { agent_id: string };
      const agent = find(agentId, ownerScope(request.apiKey));
      if (!rest.messages) throw new GatewayError(422, 'invalid_value', "Invalid request: 'messages' is required.", { param: 'messages' });
      const messages = agent.instructions ? [{ role: 'system' as const, content: agent.instructions }, ...rest.messages] : rest.messages;
      const tools = [...functionTools(agent.tools), ...(rest.tools ?? [])];
      const body: ChatBodyType = { ...rest, model: agent.model, ...(tools.length > 0 ? { tools } : {}) };
      return chatCompletion(request, reply, body, messages, models.resolve(agent.model, 'chat'));
    },
  );
};
