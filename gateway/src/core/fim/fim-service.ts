import type { CompletionResult } from '../../providers/contracts/completions.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import { providerFor, type RouteRunner } from '../routing/route-runner.js';
import type { UsageMeter } from '../billing/billing-service.js';

export interface FimRequest {
  model: string;
  prompt: string;
  suffix?: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
}

/** The routes whose backend fills in the middle, for the error that names them. */
function fimModels(models: ModelRegistry): string[] {
  return models.withCapability('completions').filter((route) => route.provider.capabilities.completions?.fillInTheMiddle).map((route) => route.id);
}

/**
 * Mistral's fill-in-the-middle on a completions route: a backend with a FIM endpoint gets prompt
 * and suffix; without a suffix any completions route will do; a suffix on a route that cannot fill
 * a gap is a 400 naming the models that can.
 */
export class FimService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
  ) {}

  async fill(request: FimRequest, meter: UsageMeter, signal: AbortSignal): Promise<{ result: CompletionResult; route: ModelRoute }> {
    const route = this.models.resolve(request.model, 'completions');
    if (request.suffix && !providerFor(route, 'completions').fillInTheMiddle) {
      const able = fimModels(this.models);
      throw new GatewayError(
        400,
        'fim_not_supported',
        `"${route.id}" cannot fill in the middle (its backend has no FIM endpoint). ${able.length > 0 ? `Models that can: ${able.join(', ')}.` : 'No configured model can: route a Codestral-type model on a provider of type mistral with capabilities [completions].'}`,
        { param: 'model' },
      );
    }
    const { value, route: served } = await this.runner.invoke(route, 'completions', signal, (completions, model, attemptSignal) =>
      completions.complete({ ...request, model, ...(request.suffix ? { suffix: request.suffix } : {}), signal: attemptSignal }),
    );
    meter.charge(served, value.usage);
    return { result: value, route: served };
  }
}
