import { DEFAULT_MODERATION_MODEL } from '../../wire/default-models.js';
import type { ClassificationResult } from '../../providers/contracts/classification.js';
import type { CategoryNames, ClassifierInput, ModerationResult } from '../../providers/contracts/moderation.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { RequestGuardrails } from '../guardrails/request-guardrails.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

/** A request's guardrails on a route (GuardrailService.for), which itself calls this service's `check`. */
export type GuardrailsOf = (
  route: ModelRoute,
  meter: UsageMeter,
  options: { moderationRules: boolean },
) => RequestGuardrails | undefined;

/**
 * Moderation and classification on routes with the `moderation` and `classification` capabilities
 * (an upstream's, or the built-in local classifier), with their retries and fallbacks. A request
 * that names no model goes to the default moderation model. The request's own moderations and
 * classifications pass its input guardrails first; a guardrail's `check` does not (no recursion).
 */
export class ClassifierService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly guardrails?: GuardrailsOf,
  ) {}

  /** The request's own moderation: its usage is the request's bill. Its text passes the pii and regex rules, not the moderation rules. */
  async moderate(
    model: string | undefined,
    input: ClassifierInput,
    names: CategoryNames,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: ModerationResult; route: ModelRoute }> {
    const route = this.moderationRoute(model);
    const checked = await this.guarded(route, input, meter, signal, false);
    const found = await this.moderation(route, checked, names, signal);
    meter.charge(found.route, { prompt_tokens: found.result.prompt_tokens, completion_tokens: 0 });
    return found;
  }

  /** A moderation another feature asks for (a guardrail), its estimate held beside the request's; its usage adds to the bill. */
  async check(
    model: string | undefined,
    texts: string[],
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: ModerationResult; route: ModelRoute }> {
    const route = this.moderationRoute(model);
    await meter.reserveFurther(route, { input: texts });
    const found = await this.moderation(route, { texts }, 'openai', signal);
    meter.addCharge(found.route, { prompt_tokens: found.result.prompt_tokens, completion_tokens: 0 });
    return found;
  }

  async classify(
    model: string | undefined,
    input: ClassifierInput,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: ClassificationResult; route: ModelRoute }> {
    const route = this.models.resolveOrDefault(model, 'classification', DEFAULT_MODERATION_MODEL);
    const checked = await this.guarded(route, input, meter, signal, true);
    const { value, route: served } = await this.runner.invoke(
      route,
      'classification',
      signal,
      (classifier, upstream, attemptSignal) =>
        classifier.classify({ model: upstream, input: checked, signal: attemptSignal }),
    );
    meter.charge(served, { prompt_tokens: value.prompt_tokens, completion_tokens: 0 });
    return { result: value, route: served };
  }

  /** The input as the classifier may see it (redacted), or a 400 when a rule blocks it. */
  private async guarded(
    route: ModelRoute,
    input: ClassifierInput,
    meter: UsageMeter,
    signal: AbortSignal,
    moderationRules: boolean,
  ): Promise<ClassifierInput> {
    const guard = this.guardrails?.(route, meter, { moderationRules });
    if (!guard) return input;
    if ('texts' in input) return { texts: await guard.texts('input', input.texts, signal) };
    // All conversations' messages in one pass (one moderation call), then cut back into conversations.
    const checked = await guard.messages(input.conversations.flat(), signal);
    let next = 0;
    return {
      conversations: input.conversations.map((conversation) => checked.slice(next, (next += conversation.length))),
    };
  }

  private moderationRoute(model: string | undefined): ModelRoute {
    return this.models.resolveOrDefault(model, 'moderation', DEFAULT_MODERATION_MODEL);
  }

  private async moderation(route: ModelRoute, input: ClassifierInput, names: CategoryNames, signal: AbortSignal) {
    const { value, route: served } = await this.runner.invoke(
      route,
      'moderation',
      signal,
      (moderation, upstream, attemptSignal) =>
        moderation.moderate({ model: upstream, input, names, signal: attemptSignal }),
    );
    return { result: value, route: served };
  }
}
