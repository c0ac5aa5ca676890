import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { newId } from '../../core/ids/ids.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { usageBody } from '../_shared/usage-body.js';
import { SamplingFields, samplingParams } from '../_shared/sampling-schema.js';

const FimBody = Type.Object(
  { ...SamplingFields, model: Type.String({ minLength: 1 }), prompt: Type.String(), suffix: Type.Optional(Type.Union([Type.String(), Type.Null()])), min_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])) },
  { additionalProperties: true },
);

const FimCompletion = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion'),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(Type.Object({ index: Type.Integer(), message: Type.Object({ role: Type.Literal('assistant'), content: Type.String() }), finish_reason: Type.String() })),
  usage: Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() }),
});

/** POST /v1/fim/completions (Mistral's fill in the middle): the code between `prompt` and `suffix`, answered in the chat shape. */
export const fimRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/fim/completions',
    {
      config: { billable: true },
      schema: { tags: ['completions'], operationId: 'createFimCompletion', summary: 'Fill-in-the-middle completion (prompt + suffix; not streamed)', body: FimBody, response: { 200: FimCompletion, ...errorResponses } },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.stream) throw new GatewayError(422, 'unsupported_parameter', 'Streaming is not available on /v1/fim/completions here; send stream: false.', { param: 'stream' });
      const { n: _ignored, ...sampling } = samplingParams(body);
      const { result, route } = await app.services.fim.fill({ ...sampling, model: body.model, prompt: body.prompt, suffix: body.suffix ?? undefined }, request.billing, clientAbortSignal(reply));
      return {
        id: newId('cmpl-'),
        object: 'chat.completion' as const,
        created: Math.floor(Date.now() / 1000),
        model: route.id,
        choices: result.choices.map((choice) => ({ index: choice.index, message: { role: 'assistant' as const, content: choice.text }, finish_reason: choice.finish_reason })),
        usage: usageBody(result.usage),
      };
    },
  );
};
