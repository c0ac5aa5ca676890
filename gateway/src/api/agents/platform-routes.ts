import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import { CAPABILITIES } from '../../providers/contracts/capability.js';
import { registerNotServed } from '../_shared/not-served.js';

const ALL: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The hosted-platform surfaces the official SDKs carry, by path prefix: whose platform, and what they are. */
const SURFACES: { prefix: string; platform: 'Mistral' | 'OpenAI'; what: string }[] = [
  { prefix: '/v1/workflows', platform: 'Mistral', what: 'workflows and their events' },
  { prefix: '/v1/client', platform: 'Mistral', what: 'realtime sessions' },
  { prefix: '/v2/prompts', platform: 'Mistral', what: 'the prompt library' },
  { prefix: '/v2/skills', platform: 'Mistral', what: 'skills' },
  { prefix: '/v1/service-accounts', platform: 'Mistral', what: 'service accounts' },
  { prefix: '/v1/users', platform: 'Mistral', what: 'users' },
  { prefix: '/v1/observability', platform: 'Mistral', what: 'observability (traces, judges, datasets)' },
  { prefix: '/v1/connectors', platform: 'Mistral', what: 'connectors' },
  { prefix: '/v1/rag', platform: 'Mistral', what: 'hosted retrieval (RAG)' },
  { prefix: '/v1/vector_stores', platform: 'OpenAI', what: 'vector stores' },
  { prefix: '/v1/assistants', platform: 'OpenAI', what: 'assistants' },
  { prefix: '/v1/threads', platform: 'OpenAI', what: 'assistant threads and runs' },
  { prefix: '/v1/fine_tuning', platform: 'OpenAI', what: 'fine-tuning jobs' },
  { prefix: '/v1/uploads', platform: 'OpenAI', what: 'multipart uploads' },
  { prefix: '/v1/containers', platform: 'OpenAI', what: 'containers' },
  { prefix: '/v1/realtime', platform: 'OpenAI', what: 'realtime sessions' },
];

/**
 * The platform surfaces of Mistral's and OpenAI's SDKs (workflows, prompts, vector stores, …) are
 * their makers' hosted services, not inference: each prefix answers the not-served error naming what it is and what the
 * gateway does serve, instead of an unknown-URL 404. Kept out of /openapi.json.
 */
export const platformRoutes: FastifyPluginAsync = async (app) => {
  for (const { prefix, platform, what } of SURFACES) {
    registerNotServed(
      app,
      'agents',
      [
        { method: ALL, url: prefix },
        { method: ALL, url: `${prefix}/*` },
      ],
      () =>
        `${prefix}… (${what}) is part of ${platform}'s hosted platform, not served by this gateway: it serves inference (${CAPABILITIES.join(', ')}), files, batches, agents and conversations. The API is described at /openapi.json.`,
    );
  }
};
