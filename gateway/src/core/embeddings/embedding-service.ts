import { DEFAULT_CHAT_MODEL } from '../../wire/default-models.js';
import type { EmbeddingResult } from '../../providers/contracts/embeddings.js';
import type { UsageMeter } from '../billing/billing-service.js';
import type { GuardrailService } from '../guardrails/guardrail-service.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

/** One vector per input string, on an embeddings route with its retries and fallbacks; the inputs pass the route's and the key's input guardrails. */
export class EmbeddingService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly guardrails?: GuardrailService,
  ) {}

  async embed(
    model: string | undefined,
    input: string[],
    dimensions: number | undefined,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: EmbeddingResult; route: ModelRoute }> {
    const route = this.models.resolveOrDefault(model, 'embeddings', DEFAULT_CHAT_MODEL);
    const guard = this.guardrails?.for(route, meter);
    const texts = guard ? await guard.texts('input', input, signal) : input;
    const { value, route: served } = await this.runner.invoke(
      route,
      'embeddings',
      signal,
      (embeddings, upstream, attemptSignal) =>
        embeddings.embed({ model: upstream, input: texts, dimensions, signal: attemptSignal }),
    );
    meter.charge(served, { prompt_tokens: value.prompt_tokens, completion_tokens: 0 });
    return { result: value, route: served };
  }
}
