import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { newId } from '../../core/ids/ids.js';
import { noteResponseId } from '../../http/request-tracing.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { stickyKey } from '../_shared/sticky-key.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { sendEventStream } from '../_shared/event-stream.js';
import { usageBody } from '../_shared/usage-body.js';
import { samplingParams } from '../_shared/sampling-schema.js';
import { CompletionBody, TextCompletion } from './completion-schemas.js';
import type { CompletionService } from '../../core/completions/completion-service.js';

/** POST /v1/completions: a prompt (or several: choice index = prompt index × n + i), plain or streamed. */
export const completionRoutes: FastifyPluginAsyncTypebox<{ completions: CompletionService }> = async (
  app,
  { completions },
) => {
  app.post(
    '/v1/completions',
    {
      config: { billable: true },
      schema: {
        tags: ['completions'],
        summary: 'Text completion',
        body: CompletionBody,
        response: { 200: TextCompletion, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt];
      const sampling = { ...samplingParams(body), ...(body.suffix ? { suffix: body.suffix } : {}) };
      const outcome = await completions.complete(
        body.model,
        prompts,
        sampling,
        body.stream === true,
        request.billing,
        clientAbortSignal(reply),
        () => stickyKey(request, body),
      );
      const id = newId('cmpl-');
      noteResponseId(request, id);
      const created = Math.floor(Date.now() / 1000);
      const served = outcome.route;
      if (outcome.kind === 'json') {
        return {
          id,
          object: 'text_completion' as const,
          created,
          model: served.id,
          choices: outcome.choices.map((choice) => ({ ...choice, logprobs: null })),
          usage: usageBody(outcome.usage),
        };
      }
      const includeUsage = body.stream_options?.include_usage === true;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
        id,
        object: 'text_completion',
        created,
        model: served.id,
        choices,
        ...extra,
      });
      return sendEventStream(request, reply, served.provider.id, async (writer) => {
        for await (const event of outcome.events) {
          if (writer.closed) return;
          if (event.type === 'usage') {
            if (includeUsage) await writer.send(chunk([], { usage: usageBody(event.usage) }));
          } else {
            await writer.send(
              chunk([
                {
                  index: event.index,
                  text: event.type === 'delta' ? event.text : '',
                  finish_reason: event.type === 'finish' ? event.finish_reason : null,
                  logprobs: null,
                },
              ]),
            );
          }
        }
      });
    },
  );
};
