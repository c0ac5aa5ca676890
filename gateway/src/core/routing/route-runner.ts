import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '../../providers/_shared/provider-error.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { ProviderCapabilities } from '../../providers/contracts/provider-instance.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ModelRegistry, ModelRoute } from './model-registry.js';
import type { DeploymentSet } from './deployment-set.js';
import type { RouteDeployment } from './route-deployment.js';
import { toGatewayError } from '../errors/provider-error-mapping.js';
import { OPERATION_BY_CAPABILITY, type GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { BreakerPermit } from './circuit-breaker.js';
import type { ProviderBreakers } from './provider-breakers.js';
import type { SpanAttributes } from '../../providers/contracts/stage-tracer.js';
import type { GatewayTracing } from '../tracing/gateway-tracing.js';
import type { TraceSpan } from '../tracing/request-trace.js';
import { genAiProviderName } from '../tracing/gen-ai-attributes.js';

export interface RouteRunnerLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

export interface RouteRunnerSettings {
  /** Overall deadline of a request whose model sets none (server.request_deadline_ms). */
  deadlineMs: number;
  baseBackoffMs?: number;
}

const MAX_BACKOFF_MS = 2_000;

/** The provider of the candidate tried last: what a failure and the call's metrics name. */
interface Tried {
  provider: ModelRoute['provider'];
}

/** Reads a request's sticky key (undefined: none), asked only on a balanced route. */
export type StickyKey = () => string | undefined;

/** A capability a provider offers, by the name core looks it up with. */
export type ProviderCapability = keyof ProviderCapabilities;
/** The provider interface behind a capability: `ProviderOf<'chat'>` is the ChatProvider. */
export type ProviderOf<K extends ProviderCapability> = NonNullable<ProviderCapabilities[K]>;

/**
 * Runs a call on a model's route under one deadline: checks the engine is up and the provider's
 * circuit breaker lets the request through, retries connection errors, 429 and 5xx before the
 * first byte with exponential backoff, then tries the route's fallbacks in order. `call` gets the
 * signal to hand to the provider: it aborts when the client leaves or the deadline passes. The
 * deadline covers everything until `run` resolves (for a stream: until its first event).
 */
export class RouteRunner {
  private readonly baseBackoffMs: number;

  constructor(
    private readonly registry: ModelRegistry,
    private readonly logger: RouteRunnerLogger,
    private readonly breakers: ProviderBreakers,
    private readonly metrics: GatewayMetrics,
    private readonly settings: RouteRunnerSettings,
    private readonly tracing?: GatewayTracing,
  ) {
    this.baseBackoffMs = settings.baseBackoffMs ?? 100;
  }

  /**
   * Runs `call` with the `capability` of each candidate's provider, its upstream model name, the
   * attempt's signal and the candidate route. A candidate whose provider lacks the capability is a 400. `routeCapability`
   * is what the route serves (for fallbacks and metrics) when it differs: a vision route read by OCR.
   * `attributes` go on the call's GenAI span (the request's parameters: temperature, max tokens).
   * `stickyKey` reads what keeps a balanced route on one deployment (the request's `user` or
   * X-Switchyard-Sticky-Key), only when the route is balanced.
   */
  invoke<K extends ProviderCapability, T>(
    first: ModelRoute,
    capability: K,
    signal: AbortSignal,
    call: (provider: ProviderOf<K>, model: string, signal: AbortSignal, route: ModelRoute) => Promise<T>,
    routeCapability: Capability = capability as Capability,
    attributes?: SpanAttributes,
    stickyKey?: StickyKey,
  ): Promise<{ value: T; route: ModelRoute }> {
    return this.run(
      first,
      routeCapability,
      signal,
      (candidate, attemptSignal) =>
        call(providerFor(candidate, capability), candidate.upstreamModel, attemptSignal, candidate),
      attributes,
      stickyKey,
    );
  }

  /**
   * `invoke` for a call that answers with a stream: on a balanced route the deployment that answered
   * counts it in flight until the stream ends, not only until its first byte, and a stream that
   * fails midway counts as that deployment's error.
   */
  invokeStream<K extends ProviderCapability, E>(
    first: ModelRoute,
    capability: K,
    signal: AbortSignal,
    call: (provider: ProviderOf<K>, model: string, signal: AbortSignal) => Promise<AsyncIterable<E>>,
    routeCapability?: Capability,
    attributes?: SpanAttributes,
    stickyKey?: StickyKey,
  ): Promise<{ value: AsyncIterable<E>; route: ModelRoute }> {
    return this.invoke(
      first,
      capability,
      signal,
      async (provider, model, attemptSignal, route): Promise<AsyncIterable<E>> => {
        const events = await call(provider, model, attemptSignal);
        return route.deployment ? route.deployment.heldWhileRead(events, signal) : events;
      },
      routeCapability,
      attributes,
      stickyKey,
    );
  }

  /**
   * The call's span (`chat svc-large`, GenAI conventions) holds the attempts' spans; retries,
   * backoffs, fallbacks and breaker refusals are its events. The request's first call stays open
   * until the request ends (http/request-tracing.ts adds the usage then); any other ends here.
   */
  async run<T>(
    first: ModelRoute,
    capability: Capability,
    signal: AbortSignal,
    call: (route: ModelRoute, signal: AbortSignal) => Promise<T>,
    attributes: SpanAttributes = {},
    stickyKey?: StickyKey,
  ): Promise<{ value: T; route: ModelRoute }> {
    const deadline = new RequestDeadline(first.deadlineMs ?? this.settings.deadlineMs, signal);
    const started = performance.now();
    const tried: Tried = { provider: first.provider };
    const operation = OPERATION_BY_CAPABILITY[capability];
    attributes['gen_ai.operation.name'] = operation;
    attributes['gen_ai.request.model'] = first.id;
    const span = this.tracing?.start(`${operation} ${first.id}`, attributes, 'client');
    const isOperation = span !== undefined && (span.trace.operation ??= span) === span;
    try {
      const runCandidates = () => this.runCandidates(first, capability, signal, deadline, call, tried, span, stickyKey);
      const result = await (this.tracing ? this.tracing.within(span, runCandidates) : runCandidates());
      this.observe(capability, first, result.route.provider, result.route.id, started, undefined);
      if (span) {
        span.set('gen_ai.response.model', result.route.id);
        if (!isOperation) span.end();
      }
      return result;
    } catch (error) {
      this.observe(
        capability,
        first,
        tried.provider,
        '',
        started,
        error instanceof GatewayError ? error.code : 'internal_error',
      );
      span?.fail(error);
      span?.end();
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  private observe(
    capability: Capability,
    first: ModelRoute,
    provider: Tried['provider'],
    responseModel: string,
    started: number,
    errorType: string | undefined,
  ): void {
    const labels = { operation: OPERATION_BY_CAPABILITY[capability], requestModel: first.id, responseModel, provider };
    this.metrics.providerCall(labels, (performance.now() - started) / 1000, errorType);
  }

  private async runCandidates<T>(
    first: ModelRoute,
    capability: Capability,
    clientSignal: AbortSignal,
    deadline: RequestDeadline,
    call: (route: ModelRoute, signal: AbortSignal) => Promise<T>,
    tried: Tried,
    span: TraceSpan | undefined,
    stickyKey: StickyKey | undefined,
  ): Promise<{ value: T; route: ModelRoute }> {
    const candidates: (ModelRoute | string)[] = [first, ...first.fallbacks];
    let lastError: GatewayError | undefined;
    for (const candidate of candidates) {
      const route = typeof candidate === 'string' ? this.tryResolve(candidate, capability) : candidate;
      if (!route) continue;
      tried.provider = route.provider;
      if (span) {
        span.set('gen_ai.provider.name', genAiProviderName(route.provider.type));
        span.set('switchyard.provider.id', route.provider.id);
        if (route !== first)
          span.event('fallback', {
            'switchyard.model': route.id,
            'switchyard.provider.id': route.provider.id,
            'error.type': lastError?.code ?? 'unknown',
          });
      }
      if (route.deployments) {
        try {
          return await this.runDeployments(
            route,
            route.deployments,
            clientSignal,
            deadline,
            call,
            tried,
            span,
            stickyKey,
          );
        } catch (error) {
          if (clientSignal.aborted)
            throw toGatewayError(new ProviderError('aborted', 'the client closed the request'), tried.provider.id);
          if (deadline.expired) throw deadline.error();
          lastError = error instanceof GatewayError ? error : toGatewayError(error, tried.provider.id);
          if (!this.mayFallBack(error)) throw lastError;
          if (candidates.length > 1)
            this.logger.warn(
              { model: route.id, code: lastError.code },
              'no deployment served; trying the next fallback',
            );
          continue;
        }
      }
      const admission = this.breakers.for(route.provider.id).admit();
      if (!admission.admitted) {
        lastError = circuitOpen(route, admission.retryAfterSeconds);
        span?.event('circuit_open', {
          'switchyard.provider.id': route.provider.id,
          'switchyard.retry_after_s': admission.retryAfterSeconds,
        });
        if (candidates.length > 1)
          this.logger.warn({ model: route.id, provider: route.provider.id }, 'circuit open; trying the next fallback');
        continue;
      }
      try {
        const value = await this.runWithRetries(route, deadline.signal, call, span);
        admission.permit.succeeded();
        return { value, route };
      } catch (error) {
        settle(admission.permit, error, deadline.expired && !clientSignal.aborted);
        if (clientSignal.aborted)
          throw toGatewayError(new ProviderError('aborted', 'the client closed the request'), route.provider.id);
        if (deadline.expired) throw deadline.error();
        lastError = toGatewayError(error, route.provider.id);
        if (!this.mayFallBack(error)) throw lastError;
        if (candidates.length > 1)
          this.logger.warn({ model: route.id, code: lastError.code }, 'route failed; trying the next fallback');
      }
    }
    throw (
      lastError ?? new GatewayError(503, 'no_route_available', `No route for "${first.id}" could serve the request.`)
    );
  }

  /**
   * A balanced route: its deployments in the strategy's order, each tried once (the last with the
   * route's retries), so a retry moves to another deployment before a fallback moves to another
   * model. A deployment whose breaker refuses, or that is at its rpm/tpm on every instance, is passed;
   * every attempt, retries included, counts toward its deployment's rpm.
   */
  private async runDeployments<T>(
    route: ModelRoute,
    deployments: DeploymentSet<ModelRoute>,
    clientSignal: AbortSignal,
    deadline: RequestDeadline,
    call: (route: ModelRoute, signal: AbortSignal) => Promise<T>,
    tried: Tried,
    span: TraceSpan | undefined,
    stickyKey: StickyKey | undefined,
  ): Promise<{ value: T; route: ModelRoute }> {
    const order = deployments.rank(stickyKey?.());
    let lastError: unknown;
    for (let index = 0; index < order.length; index++) {
      const { deployment, route: served } = order[index]!;
      const admission = this.breakers.for(deployment.provider.id).admit();
      if (!admission.admitted) continue;
      if (!(await deployment.claim())) {
        admission.permit.released();
        continue;
      }
      tried.provider = deployment.provider;
      if (span) {
        span.set('gen_ai.provider.name', genAiProviderName(deployment.provider.type));
        span.set('switchyard.provider.id', deployment.provider.id);
        span.set('switchyard.deployment', deployment.id);
      }
      const started = performance.now();
      deployment.started();
      try {
        const value =
          index === order.length - 1
            ? await this.runWithRetries(served, deadline.signal, call, span, deployment)
            : await this.runOnce(served, deadline.signal, call);
        admission.permit.succeeded();
        deployment.finished(performance.now() - started, undefined);
        return { value, route: served };
      } catch (error) {
        settle(admission.permit, error, deadline.expired && !clientSignal.aborted);
        deployment.finished(performance.now() - started, error ?? new Error('failed'));
        if (deadline.signal.aborted || !this.mayFallBack(error)) throw error;
        lastError = error;
        span?.event('deployment_failed', {
          'switchyard.deployment': deployment.id,
          'error.type': error instanceof ProviderError ? (error.code ?? error.kind) : 'unknown',
        });
      }
    }
    throw lastError ?? noDeploymentAvailable(route);
  }

  private tryResolve(name: string, capability: Capability): ModelRoute | undefined {
    try {
      return this.registry.resolve(name, capability);
    } catch {
      this.logger.warn({ fallback: name }, 'fallback model is not usable; skipped');
      return undefined;
    }
  }

  private assertEngineUp(route: ModelRoute): void {
    const status = route.provider.status();
    if (status.state === 'loading') {
      throw new GatewayError(
        503,
        'engine_warming_up',
        `The engine behind "${route.id}" is still starting; retry shortly.`,
        { retryAfter: 10 },
      );
    }
    if (status.state === 'unavailable') {
      throw new GatewayError(
        503,
        'engine_unavailable',
        `The engine behind "${route.id}" cannot serve: ${status.detail ?? 'unavailable'}`,
        { retryAfter: 30 },
      );
    }
  }

  private runOnce<T>(
    route: ModelRoute,
    signal: AbortSignal,
    call: (route: ModelRoute, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.assertEngineUp(route);
    return call(route, signal);
  }

  /** `deployment`: a balanced route's last one, whose rpm/tpm each retry counts against (none left: the last error). */
  private async runWithRetries<T>(
    route: ModelRoute,
    signal: AbortSignal,
    call: (route: ModelRoute, signal: AbortSignal) => Promise<T>,
    span: TraceSpan | undefined,
    deployment?: RouteDeployment,
  ): Promise<T> {
    this.assertEngineUp(route);
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(route, signal);
      } catch (error) {
        if (signal.aborted) throw new ProviderError('aborted', 'the request was cancelled');
        const retryable = error instanceof ProviderError && error.retryable;
        if (!retryable || attempt >= route.maxRetries) throw error;
        const suggested = (error as ProviderError).retryAfter;
        if (suggested !== undefined && suggested * 1000 > MAX_BACKOFF_MS) throw error;
        const backoff = Math.min(
          MAX_BACKOFF_MS,
          suggested !== undefined ? suggested * 1000 : this.baseBackoffMs * 2 ** attempt * (0.75 + Math.random() / 2),
        );
        span?.event('retry', {
          'switchyard.attempt': attempt + 2,
          'switchyard.backoff_ms': Math.round(backoff),
          'error.type': (error as ProviderError).code ?? (error as ProviderError).kind,
        });
        await sleep(backoff, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) throw new ProviderError('aborted', 'the request was cancelled');
        if (deployment && !(await deployment.claim())) throw error;
      }
    }
  }

  private mayFallBack(error: unknown): boolean {
    if (error instanceof GatewayError)
      return (
        error.code === 'engine_warming_up' ||
        error.code === 'engine_unavailable' ||
        error.code === 'no_deployment_available'
      );
    return (
      error instanceof ProviderError &&
      (error.retryable || error.kind === 'unavailable' || error.kind === 'upstream_auth')
    );
  }
}

/** The provider behind `route` as seen through `capability`, or a 400 when it has none. */
export function providerFor<K extends ProviderCapability>(route: ModelRoute, capability: K): ProviderOf<K> {
  const provider = route.provider.capabilities[capability];
  if (!provider)
    throw new GatewayError(
      400,
      'capability_not_supported',
      `The provider behind "${route.id}" cannot serve ${capability}.`,
      { param: 'model' },
    );
  return provider as ProviderOf<K>;
}

/** Connection errors, timeouts, 5xx and garbage bodies say the provider is unwell; a client's bad request or abort does not. */
function settle(permit: BreakerPermit, error: unknown, deadlinePassed: boolean): void {
  const unwell =
    deadlinePassed ||
    (error instanceof ProviderError &&
      (error.kind === 'connection' || error.kind === 'timeout' || error.kind === 'upstream'));
  if (unwell) permit.failed();
  else permit.released();
}

function circuitOpen(route: ModelRoute, retryAfterSeconds: number): GatewayError {
  return new GatewayError(
    503,
    'provider_circuit_open',
    `The provider "${route.provider.id}" (serving "${route.id}") failed repeatedly and is paused; the gateway tries it again in ${retryAfterSeconds} s. See GET /status for its breaker state.`,
    { retryAfter: retryAfterSeconds },
  );
}

function noDeploymentAvailable(route: ModelRoute): GatewayError {
  const members = route.deployments?.members ?? [];
  const cooling = members.map((member) => member.deployment.coolingSeconds()).filter((seconds) => seconds > 0);
  return new GatewayError(
    503,
    'no_deployment_available',
    `No deployment of "${route.id}" can take a request now: each has its circuit breaker open, is cooling down after a 429, or is at its rpm/tpm this minute. GET /models shows each deployment's state.`,
    { retryAfter: cooling.length > 0 ? Math.min(...cooling) : 1 },
  );
}

/**
 * One request's overall deadline: its `signal` aborts when the client goes away or the deadline
 * passes, whichever comes first, so every attempt, backoff and fallback under it stops at once.
 * `dispose` disarms it (a stream that has started is no longer under the deadline).
 */
class RequestDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;

  constructor(
    private readonly ms: number,
    client: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('request deadline exceeded'));
    }, ms);
    this.timer.unref();
    // One controller fed by both, not AbortSignal.any: that one costs a composite signal and weak
    // references on every request.
    if (client.aborted) this.controller.abort(client.reason);
    else client.addEventListener('abort', () => this.controller.abort(client.reason), { once: true });
  }

  get expired(): boolean {
    return this.timedOut;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  error(): GatewayError {
    const seconds = this.ms / 1000;
    return new GatewayError(
      504,
      'request_deadline_exceeded',
      `The request did not complete within its deadline of ${seconds} s (retries and fallbacks included). Retry later, or raise server.request_deadline_ms (or the model's request_deadline_ms) in the config file.`,
      { retryAfter: 5 },
    );
  }
}
