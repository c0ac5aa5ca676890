import type { CompletionResult } from '../../providers/contracts/completions.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteRunner } from '../routing/route-runner.js';

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
export async function fillInTheMiddle(models: ModelRegistry, runner: RouteRunner, request: FimRequest, signal: AbortSignal): Promise<{ result: CompletionResult; route: ModelRoute }> {
  const route = models.resolve(request.model, 'completions');
  const completions = route.provider.capabilities.completions!;
  if (request.suffix && !completions.fillInTheMiddle) {
    const able = fimModels(models);
    throw new GatewayError(
      400,
      'fim_not_supported',
      `"${route.id}" cannot fill in the middle (its backend has no FIM endpoint). ${able.length > 0 ? `Models that can: ${able.join(', ')}.` : 'No configured model can: route a Codestral-type model on a provider of type mistral with capabilities [completions].'}`,
      { param: 'model' },
    );
  }
  const { value, route: served } = await runner.run(route, 'completions', signal, (candidate) =>
    candidate.provider.capabilities.completions!.complete({ ...request, model: candidate.upstreamModel, ...(request.suffix ? { suffix: request.suffix } : {}), signal }),
  );
  return { result: value, route: served };
}
