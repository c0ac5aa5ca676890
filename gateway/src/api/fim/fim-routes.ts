import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { newId } from '../../core/ids/ids.js';
import { noteResponseId } from '../../http/request-tracing.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { chatChunkFrames } from '../../streaming/chat-chunk-frame.js';
import { sendEventStream } from '../_shared/event-stream.js';
import { usageBody } from '../_shared/usage-body.js';
import { SamplingFields, samplingParams } from '../_shared/sampling-schema.js';
import { Usage } from '../../wire/usage-schema.js';
import type { FimService } from '../../core/fim/fim-service.js';

const FimBody = Type.Object(
  {
    ...SamplingFields,
    model: Type.String({ minLength: 1 }),
    prompt: Type.String(),
    suffix: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    min_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  },
  { additionalProperties: true },
);

const FimCompletion = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion'),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer(),
      message: Type.Object({ role: Type.Literal('assistant'), content: Type.String() }),
      finish_reason: Type.String(),
    }),
  ),
  usage: Usage,
});

/** POST /v1/fim/completions (Mistral's fill in the middle): the code between `prompt` and `suffix`, answered in the chat shape, or streamed as chat chunks. */
export const fimRoutes: FastifyPluginAsyncTypebox<{ fim: FimService }> = async (app, { fim }) => {
  app.post(
    '/v1/fim/completions',
    {
      config: { billable: true },
      schema: {
        tags: ['completions'],
        operationId: 'createFimCompletion',
        summary: 'Fill-in-the-middle completion (prompt + suffix); stream: true sends chat.completion.chunk frames',
        body: FimBody,
        response: { 200: FimCompletion, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const signal = clientAbortSignal(reply);
      // Mistral's FIM request has no n and no penalties.
      const { n: _n, presence_penalty: _presence, frequency_penalty: _frequency, ...sampling } = samplingParams(body);
      // An empty suffix is no gap to fill: a plain completion.
      const gap = { ...sampling, model: body.model, prompt: body.prompt, suffix: body.suffix || undefined };
      const id = newId('cmpl-');
      const created = Math.floor(Date.now() / 1000);
      if (body.stream) {
        const { events, route } = await fim.fillStream(gap, request.billing, signal);
        noteResponseId(request, id);
        const frames = chatChunkFrames({ id, created, model: route.id });
        return sendEventStream(request, reply, route.provider.id, async (writer) => {
          for await (const event of events) {
            if (writer.closed) return;
            if (event.type === 'usage') {
              await writer.sendJsonText(frames.chunk([], { usage: usageBody(event.usage) }));
            } else if (event.type === 'delta') {
              await writer.sendJsonText(
                frames.chunk([
                  { index: event.index, delta: { role: 'assistant', content: event.text }, finish_reason: null },
                ]),
              );
            } else {
              await writer.sendJsonText(
                frames.chunk([{ index: event.index, delta: { content: '' }, finish_reason: event.finish_reason }]),
              );
            }
          }
        });
      }
      const { result, route } = await fim.fill(gap, request.billing, signal);
      noteResponseId(request, id);
      return {
        id,
        object: 'chat.completion' as const,
        created,
        model: route.id,
        choices: result.choices.map((choice) => ({
          index: choice.index,
          message: { role: 'assistant' as const, content: choice.text },
          finish_reason: choice.finish_reason,
        })),
        usage: usageBody(result.usage),
      };
    },
  );
};
