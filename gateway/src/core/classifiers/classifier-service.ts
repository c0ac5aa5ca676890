import { DEFAULT_MODERATION_MODEL } from '../../wire/default-models.js';
import type { ClassificationResult } from '../../providers/contracts/classification.js';
import type { CategoryNames, ClassifierInput, ModerationResult } from '../../providers/contracts/moderation.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

/**
 * Moderation and classification on routes with the `moderation` and `classification` capabilities
 * (an upstream's, or the built-in local classifier), with their retries and fallbacks. A request
 * that names no model goes to the default moderation model.
 */
export class ClassifierService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
  ) {}

  /** The request's own moderation: its usage is the request's bill. */
  async moderate(
    model: string | undefined,
    input: ClassifierInput,
    names: CategoryNames,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: ModerationResult; route: ModelRoute }> {
    const found = await this.moderation(this.moderationRoute(model), input, names, signal);
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
    const { value, route: served } = await this.runner.invoke(
      route,
      'classification',
      signal,
      (classifier, upstream, attemptSignal) => classifier.classify({ model: upstream, input, signal: attemptSignal }),
    );
    meter.charge(served, { prompt_tokens: value.prompt_tokens, completion_tokens: 0 });
    return { result: value, route: served };
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
