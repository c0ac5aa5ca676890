import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import { newId } from '../../core/ids/ids.js';
import type { CompletionResult, CompletionStreamEvent } from '../../providers/contracts/completions.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import { clientAbortSignal } from '../_shared/client-abort.js';
import { errorResponses } from '../_shared/common-schemas.js';
import { sendEventStream } from '../_shared/event-stream.js';
import { billEstimateOnDisconnect, recordUsage, usageBody } from '../_shared/record-usage.js';
import { StreamUsageEstimate } from '../../core/billing/stream-usage-estimate.js';
import { samplingParams } from '../_shared/sampling-schema.js';
import { CompletionBody, TextCompletion } from './completion-schemas.js';

const addUsage = (total: TokenUsage, more: TokenUsage): TokenUsage => ({ prompt_tokens: total.prompt_tokens + more.prompt_tokens, completion_tokens: total.completion_tokens + more.completion_tokens });

/** POST /v1/completions: a prompt (or several: choice index = prompt index × n + i), plain or streamed. */
export const completionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/completions',
    { config: { billable: true }, schema: { tags: ['completions'], summary: 'Text completion', body: CompletionBody, response: { 200: TextCompletion, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      const { models, runner } = app.services;
      const route = models.resolve(body.model ?? DEFAULT_CHAT_MODEL, 'completions');
      const signal = clientAbortSignal(reply);
      const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt];
      const params = { ...samplingParams(body), signal };
      const perPrompt = params.n ?? 1;
      const id = newId('cmpl-');
      const created = Math.floor(Date.now() / 1000);

      if (!body.stream) {
        let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
        const choices: CompletionResult['choices'] = [];
        let servedId = route.id;
        for (const [promptIndex, prompt] of prompts.entries()) {
          const { value, route: served } = await runner.run(route, 'completions', signal, (candidate, attemptSignal) => candidate.provider.capabilities.completions!.complete({ ...params, prompt, model: candidate.upstreamModel, signal: attemptSignal }));
          servedId = served.id;
          usage = addUsage(usage, value.usage);
          for (const choice of value.choices) choices.push({ ...choice, index: promptIndex * perPrompt + choice.index });
          recordUsage(request, reply, served, usage);
        }
        return { id, object: 'text_completion' as const, created, model: servedId, choices: choices.map((choice) => ({ ...choice, logprobs: null })), usage: usageBody(usage) };
      }

      const includeUsage = body.stream_options?.include_usage === true;
      const first = await runner.run(route, 'completions', signal, (candidate, attemptSignal) => candidate.provider.capabilities.completions!.completeStream({ ...params, prompt: prompts[0], model: candidate.upstreamModel, signal: attemptSignal }));
      const served = first.route;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ id, object: 'text_completion', created, model: served.id, choices, ...extra });
      const estimate = StreamUsageEstimate.forPrompt(prompts.join('\n'));
      billEstimateOnDisconnect(request, served, estimate);
      return sendEventStream(request, reply, served.provider.id, async (writer) => {
        let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
        for (const [promptIndex, prompt] of prompts.entries()) {
          const events =
            promptIndex === 0
              ? first.value
              : (await runner.run(served, 'completions', signal, (candidate, attemptSignal) => candidate.provider.capabilities.completions!.completeStream({ ...params, prompt, model: candidate.upstreamModel, signal: attemptSignal }))).value;
          for await (const event of events as AsyncIterable<CompletionStreamEvent>) {
            if (writer.closed) return;
            if (event.type === 'usage') {
              usage = addUsage(usage, event.usage);
              recordUsage(request, reply, served, usage);
            } else {
              if (event.type === 'delta') estimate.add(event.text);
              const index = promptIndex * perPrompt + event.index;
              await writer.send(chunk([{ index, text: event.type === 'delta' ? event.text : '', finish_reason: event.type === 'finish' ? event.finish_reason : null, logprobs: null }]));
            }
          }
        }
        if (includeUsage) await writer.send(chunk([], { usage: usageBody(usage) }));
      });
    },
  );
};
