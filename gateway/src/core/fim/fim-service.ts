import {
  FIM_NOT_SUPPORTED,
  type CompletionResult,
  type CompletionStreamEvent,
} from '../../providers/contracts/completions.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import { providerFor, type RouteRunner } from '../routing/route-runner.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { StreamUsageEstimate } from '../billing/stream-usage-estimate.js';
import type { GuardrailService } from '../guardrails/guardrail-service.js';
import type { RequestGuardrails } from '../guardrails/request-guardrails.js';
import { guardCompletionStream } from '../guardrails/guarded-streams.js';

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
  return models
    .withCapability('completions')
    .filter((route) => route.provider.capabilities.completions?.fillInTheMiddle)
    .map((route) => route.id);
}

function fimRefusal(models: ModelRegistry, reason: string): GatewayError {
  const able = fimModels(models);
  return new GatewayError(
    400,
    FIM_NOT_SUPPORTED,
    `${reason} ${able.length > 0 ? `Models whose backend can (llama.cpp ones only with a GGUF that has FIM tokens): ${able.join(', ')}.` : 'No configured model can: route a Codestral-type model on a provider of type mistral or openai (a server whose /v1/completions takes suffix: vLLM, llama.cpp, Ollama), or a FIM-trained GGUF on llamacpp, with capabilities [completions].'}`,
    { param: 'model' },
  );
}

/**
 * Mistral's fill-in-the-middle on a completions route: a backend that fills gaps (Mistral's FIM
 * endpoint, llama.cpp infill, an OpenAI-compatible /completions with `suffix`) gets prompt and suffix; without a suffix any completions route will
 * do; a suffix on a route that cannot fill a gap, or on a local model without FIM tokens, is a 400
 * naming the models that can.
 */
export class FimService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly runner: RouteRunner,
    private readonly guardrails?: GuardrailService,
  ) {}

  async fill(
    request: FimRequest,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ result: CompletionResult; route: ModelRoute }> {
    const { value, route, guard } = await this.start(request, meter, signal, (route, checked) =>
      this.runner.invoke(route, 'completions', signal, (completions, model, attemptSignal) =>
        completions.complete({ ...checked, model, signal: attemptSignal }),
      ),
    );
    meter.charge(route, value.usage);
    if (!guard) return { result: value, route };
    const texts = await guard.texts(
      'output',
      value.choices.map((choice) => choice.text),
      signal,
    );
    return {
      result: { ...value, choices: value.choices.map((choice, index) => ({ ...choice, text: texts[index] })) },
      route,
    };
  }

  /** The same, streamed: resolves once the backend has started (so a refusal is still a plain 400); charges the usage as it arrives. */
  async fillStream(
    request: FimRequest,
    meter: UsageMeter,
    signal: AbortSignal,
  ): Promise<{ events: AsyncIterable<CompletionStreamEvent>; route: ModelRoute }> {
    // A balanced route's deployment counts the stream in flight until its last chunk (invokeStream).
    const { value, route, guard } = await this.start(request, meter, signal, (route, checked) =>
      this.runner.invokeStream(route, 'completions', signal, (completions, model, attemptSignal) =>
        completions.completeStream({ ...checked, model, signal: attemptSignal }),
      ),
    );
    const estimate = StreamUsageEstimate.forPrompt(`${request.prompt}${request.suffix ?? ''}`);
    meter.chargeEstimateIfAbandoned(route, estimate);
    async function* events(): AsyncGenerator<CompletionStreamEvent> {
      for await (const event of value) {
        if (event.type === 'usage') meter.charge(route, event.usage);
        else if (event.type === 'delta') estimate.add(event.text);
        yield event;
      }
    }
    const streamGuard = guard?.outputStream(signal);
    return { events: streamGuard ? guardCompletionStream(events(), streamGuard) : events(), route };
  }

  /** Resolves the route, runs the input guardrails and the FIM check, then `run` on the route with the checked request. */
  private async start<T>(
    asked: FimRequest,
    meter: UsageMeter,
    signal: AbortSignal,
    run: (route: ModelRoute, request: FimRequest) => Promise<{ value: T; route: ModelRoute }>,
  ): Promise<{ value: T; route: ModelRoute; guard: RequestGuardrails | undefined }> {
    const route = this.models.resolve(asked.model, 'completions');
    const guard = route.guardrails || meter.keyGuardrails ? this.guardrails?.for(route, meter) : undefined;
    const request = guard ? await checked(guard, asked, signal) : asked;
    if (request.suffix && !providerFor(route, 'completions').fillInTheMiddle)
      throw fimRefusal(this.models, `"${route.id}" cannot fill in the middle (its backend has no FIM endpoint).`);
    try {
      return { ...(await run(route, request)), guard };
    } catch (error) {
      if (error instanceof GatewayError && error.code === FIM_NOT_SUPPORTED)
        throw fimRefusal(this.models, error.message);
      throw error;
    }
  }
}

/** The prompt and suffix as the request's input guardrails leave them; the stop sequences checked too. */
async function checked(guard: RequestGuardrails, request: FimRequest, signal: AbortSignal): Promise<FimRequest> {
  const [prompt, suffix] = await guard.texts('input', [request.prompt, request.suffix ?? ''], signal, request.stop);
  return { ...request, prompt, ...(request.suffix !== undefined ? { suffix } : {}) };
}
