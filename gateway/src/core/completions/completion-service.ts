import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import type {
  CompletionRequest,
  CompletionResult,
  CompletionStreamEvent,
} from '../../providers/contracts/completions.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner, StickyKey } from '../routing/route-runner.js';
import type { GuardrailService } from '../guardrails/guardrail-service.js';
import type { RequestGuardrails } from '../guardrails/request-guardrails.js';
import { guardCompletionStream } from '../guardrails/guarded-streams.js';

/** A streamed completion's events with choice indexes over all prompts; the total usage comes last. */
export type CompletionPiece = Exclude<CompletionStreamEvent, { type: 'usage' }> | { type: 'usage'; usage: TokenUsage };

export type CompletionOutcome =
  | { kind: 'json'; route: ModelRoute; choices: CompletionResult['choices']; usage: TokenUsage }
  | { kind: 'stream'; route: ModelRoute; events: AsyncIterable<CompletionPiece> };

/** Sampling as the client asked for it, apart from the model; `suffix` (OpenAI's insert mode) goes to the backend, which refuses it if it cannot fill a gap. */
export type Sampling = Omit<CompletionRequest, 'model' | 'signal' | 'prompt'>;

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
const addUsage = (total: TokenUsage, more: TokenUsage): TokenUsage => ({
  prompt_tokens: total.prompt_tokens + more.prompt_tokens,
  completion_tokens: total.completion_tokens + more.completion_tokens,
});

/**
 * Text completions of one prompt or several, one after the other on the same route: choice index =
 * prompt index × n + i. Streamed, the first prompt starts before the answer does (so its errors are
 * the response's status); the others follow on the route that served it.
 */
export class CompletionService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly guardrails?: GuardrailService,
  ) {}

  async complete(
    model: string | undefined,
    asked: string[],
    askedSampling: Sampling,
    stream: boolean,
    meter: UsageMeter,
    signal: AbortSignal,
    stickyKey?: StickyKey,
  ): Promise<CompletionOutcome> {
    const route = this.models.resolveOrDefault(model, 'completions', DEFAULT_CHAT_MODEL);
    const guard = route.guardrails || meter.keyGuardrails ? this.guardrails?.for(route, meter) : undefined;
    const { prompts, sampling } = guard
      ? await checkedPrompts(guard, asked, askedSampling, signal)
      : { prompts: asked, sampling: askedSampling };
    const perPrompt = sampling.n ?? 1;
    if (!stream) {
      let usage = NO_USAGE;
      const choices: CompletionResult['choices'] = [];
      let served = route;
      for (const [promptIndex, prompt] of prompts.entries()) {
        const answer = await this.runner.invoke(
          route,
          'completions',
          signal,
          (completions, upstream, attemptSignal) =>
            completions.complete({ ...sampling, prompt, model: upstream, signal: attemptSignal }),
          undefined,
          undefined,
          stickyKey,
        );
        served = answer.route;
        usage = addUsage(usage, answer.value.usage);
        for (const choice of answer.value.choices)
          choices.push({ ...choice, index: promptIndex * perPrompt + choice.index });
        meter.charge(served, usage);
      }
      if (!guard) return { kind: 'json', route: served, choices, usage };
      const texts = await guard.texts(
        'output',
        choices.map((choice) => choice.text),
        signal,
      );
      return {
        kind: 'json',
        route: served,
        choices: choices.map((choice, index) => ({ ...choice, text: texts[index] })),
        usage,
      };
    }
    const startStream = (on: ModelRoute, prompt: string) =>
      this.runner.invokeStream(
        on,
        'completions',
        signal,
        (completions, upstream, attemptSignal) =>
          completions.completeStream({
            ...sampling,
            prompt,
            model: upstream,
            signal: attemptSignal,
          } satisfies CompletionRequest),
        undefined,
        undefined,
        stickyKey,
      );
    const first = await startStream(route, prompts[0]);
    const served = first.route;
    const estimate = StreamUsageEstimate.forPrompt(prompts.join('\n'));
    meter.chargeEstimateIfAbandoned(served, estimate);
    async function* events(): AsyncGenerator<CompletionPiece> {
      let usage = NO_USAGE;
      for (const [promptIndex, prompt] of prompts.entries()) {
        const stream = promptIndex === 0 ? first.value : (await startStream(served, prompt)).value;
        for await (const event of stream) {
          if (event.type === 'usage') {
            usage = addUsage(usage, event.usage);
            meter.charge(served, usage);
            continue;
          }
          if (event.type === 'delta') estimate.add(event.text);
          yield { ...event, index: promptIndex * perPrompt + event.index };
        }
      }
      yield { type: 'usage', usage };
    }
    const streamGuard = guard?.outputStream(signal);
    return {
      kind: 'stream',
      route: served,
      events: streamGuard ? guardCompletionStream(events(), streamGuard) : events(),
    };
  }
}

/** The prompts (and an insert's suffix) as the route's input guardrails leave them; the stop sequences checked too. */
async function checkedPrompts(
  guard: RequestGuardrails,
  prompts: string[],
  sampling: Sampling,
  signal: AbortSignal,
): Promise<{ prompts: string[]; sampling: Sampling }> {
  const texts = await guard.texts('input', [...prompts, sampling.suffix ?? ''], signal, sampling.stop);
  const suffix = texts.pop();
  return { prompts: texts, sampling: sampling.suffix === undefined ? sampling : { ...sampling, suffix } };
}
