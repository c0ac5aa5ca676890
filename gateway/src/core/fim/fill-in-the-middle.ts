import { FIM_NOT_SUPPORTED, type CompletionResult, type CompletionStreamEvent } from '../../providers/contracts/completions.js';
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

function fimRefusal(models: ModelRegistry, reason: string): GatewayError {
  const able = fimModels(models);
  return new GatewayError(
    400,
    FIM_NOT_SUPPORTED,
    `${reason} ${able.length > 0 ? `Models whose backend can (llama.cpp ones only with a GGUF that has FIM tokens): ${able.join(', ')}.` : 'No configured model can: route a Codestral-type model on a provider of type mistral, or a FIM-trained GGUF on llamacpp, with capabilities [completions].'}`,
    { param: 'model' },
  );
}

/**
 * Mistral's fill-in-the-middle on a completions route: a backend that fills gaps (Mistral's FIM
 * endpoint, llama.cpp infill) gets prompt and suffix; without a suffix any completions route will
 * do; a suffix on a route that cannot fill a gap, or on a local model without FIM tokens, is a 400
 * naming the models that can.
 */
async function runFim<T>(models: ModelRegistry, request: FimRequest, call: (route: ModelRoute) => Promise<{ value: T; route: ModelRoute }>) {
  const route = models.resolve(request.model, 'completions');
  if (request.suffix !== undefined && !route.provider.capabilities.completions!.fillInTheMiddle) throw fimRefusal(models, `"${route.id}" cannot fill in the middle (its backend has no FIM endpoint).`);
  try {
    return await call(route);
  } catch (error) {
    if (error instanceof GatewayError && error.code === FIM_NOT_SUPPORTED) throw fimRefusal(models, error.message);
    throw error;
  }
}

export async function fillInTheMiddle(models: ModelRegistry, runner: RouteRunner, request: FimRequest, signal: AbortSignal): Promise<{ result: CompletionResult; route: ModelRoute }> {
  const { value, route } = await runFim(models, request, (route) =>
    runner.run(route, 'completions', signal, (candidate, attemptSignal) => candidate.provider.capabilities.completions!.complete({ ...request, model: candidate.upstreamModel, signal: attemptSignal })),
  );
  return { result: value, route };
}

/** The same, streamed: resolves once the backend has started (so a refusal is still a plain 400). */
export async function fillInTheMiddleStream(models: ModelRegistry, runner: RouteRunner, request: FimRequest, signal: AbortSignal): Promise<{ events: AsyncIterable<CompletionStreamEvent>; route: ModelRoute }> {
  const { value, route } = await runFim(models, request, (route) =>
    runner.run(route, 'completions', signal, (candidate, attemptSignal) => candidate.provider.capabilities.completions!.completeStream({ ...request, model: candidate.upstreamModel, signal: attemptSignal })),
  );
  return { events: value, route };
}
