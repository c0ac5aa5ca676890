import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ApiKeyRecord } from '../../store/keys-repository.js';
import type { CacheNote } from '../../wire/response-cache-schema.js';
import type { AccountService } from '../account/account-service.js';
import type { CompiledGuardrails } from '../guardrails/compile-guardrails.js';
import type { ModelRegistry, ModelRoute } from '../routing/model-registry.js';
import type { RouteDeployment } from '../routing/route-deployment.js';
import { costOf, estimateRequestCost } from './pricing.js';
import { EPSILON, type Reservation } from './spend-reservations.js';
import type { StreamUsageEstimate } from './stream-usage-estimate.js';
import type { UsageLedger } from './usage-ledger.js';

/** What a request used, priced at its route's prices. */
export interface ChargedUsage {
  model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

/** Where a use case reports what its request used; the billing of that request. */
export interface UsageMeter {
  /** The usage of the request's own call on `route` so far (a later call replaces it). */
  charge(route: ModelRoute, usage: TokenUsage): void;
  /** A further whole call made for the request (a chat turn a feature asks for): its usage adds to the bill. */
  addCharge(route: ModelRoute, usage: TokenUsage): void;
  /** A stream starts on `route`: a client that leaves before its final usage is billed `estimate`. */
  chargeEstimateIfAbandoned(route: ModelRoute, estimate: StreamUsageEstimate): void;
  /**
   * Before a chat turn runs on `route`: holds its estimated cost (the turn as a provider gets it) when
   * the request's body did not name the model (an agent's, a conversation's, a Responses request's
   * whole conversation); 402 when it does not fit. Nothing when the cost was reserved already.
   */
  reserveTurn(route: ModelRoute, turn: Record<string, unknown>): Promise<void>;
  /**
   * Before a further model call the request makes (a tool loop's next step, a turn another feature
   * asks for): holds enough more that the request's holds cover what it used so far plus that call's
   * estimate (the first hold, when the request's cost is reserved at its turn); 402 when it does not
   * fit, so one request cannot spend past a limit call by call.
   */
  reserveFurther(route: ModelRoute, turn: Record<string, unknown>): Promise<void>;
  /** What the response cache did for the request (a hit, a miss, a bypass), for the request log. */
  noteCache(note: CacheNote): void;
  /**
   * The guardrails of the key making the request, which every use case runs beside its route's: they
   * travel with the bill because it is the one per-request object each use case is handed.
   */
  readonly keyGuardrails?: CompiledGuardrails;
}

/** One request's bill: its reservation, the usage its use case charged, and the estimate of a stream in progress. */
export class RequestBilling implements UsageMeter {
  private charged: ChargedUsage | null = null;
  /** The deployment of a balanced route that served the charged usage, whose counts hold it. */
  private chargedDeployment: RouteDeployment | undefined;
  private added: ChargedUsage[] | undefined;
  private estimate: (() => ChargedUsage) | undefined;
  private reserveLater: ((route: ModelRoute, turn: Record<string, unknown>) => Promise<void>) | undefined;
  /** What holds the costs of further calls, for the key whose first hold was made (see `reserveFurther`). */
  holder: { billing: BillingService; key: ApiKeyRecord } | undefined;
  reservation: Reservation | undefined;
  /** The holds made for further calls (reserveFurther), released when the request settles. */
  further: Reservation[] | undefined;
  /** The route the body's `model` names, found once when the cost was reserved (undefined: it names none). */
  namedRoute: ModelRoute | undefined;
  /** What the response cache did for the request, on a cached route. */
  cache: CacheNote | undefined;
  keyGuardrails: CompiledGuardrails | undefined;

  charge(route: ModelRoute, usage: TokenUsage): void {
    const previous = this.charged;
    this.charged = priced(route, usage);
    // A later charge replaces the earlier one (a multi-prompt completion's running total): so do the deployments' counts.
    if (previous) this.chargedDeployment?.charged(-tokensOf(previous), -previous.cost);
    this.chargedDeployment = route.deployment;
    route.deployment?.charged(tokensOf(this.charged), this.charged.cost);
  }

  addCharge(route: ModelRoute, usage: TokenUsage): void {
    const line = priced(route, usage);
    (this.added ??= []).push(line);
    route.deployment?.charged(tokensOf(line), line.cost);
  }

  chargeEstimateIfAbandoned(route: ModelRoute, estimate: StreamUsageEstimate): void {
    this.estimate = () => priced(route, estimate.usage());
  }

  reserveTurn(route: ModelRoute, turn: Record<string, unknown>): Promise<void> {
    const reserve = this.reserveLater;
    if (!reserve) return Promise.resolve();
    this.reserveLater = undefined;
    return reserve(route, turn);
  }

  reserveFurther(route: ModelRoute, turn: Record<string, unknown>): Promise<void> {
    if (this.reserveLater) return this.reserveTurn(route, turn);
    return this.holder ? this.holder.billing.holdFurther(this, this.holder.key, route, turn) : Promise.resolve();
  }

  noteCache(note: CacheNote): void {
    this.cache = note;
  }

  /** The request's cost is reserved at its first chat turn, by `reserve`. */
  reserveAtTurn(reserve: (route: ModelRoute, turn: Record<string, unknown>) => Promise<void>): void {
    this.reserveLater = reserve;
  }

  /** The usage charged so far (null until the use case reports it); its cost goes in X-Request-Cost. */
  get usage(): ChargedUsage | null {
    return this.withAdded(this.charged);
  }

  /** What the finished request is billed: its charged usage, or for a stream the client left, the estimate. */
  billed(abandoned: boolean): ChargedUsage | null {
    return this.withAdded(this.charged ?? (abandoned ? (this.estimate?.() ?? null) : null));
  }

  /** The request's own charge plus its further calls: tokens and costs summed, under the model that used the most tokens. */
  private withAdded(own: ChargedUsage | null): ChargedUsage | null {
    if (!this.added) return own;
    const lines = own ? [own, ...this.added] : this.added;
    return {
      model: lines.reduce((most, line) => (tokensOf(line) > tokensOf(most) ? line : most)).model,
      prompt_tokens: lines.reduce((sum, line) => sum + line.prompt_tokens, 0),
      completion_tokens: lines.reduce((sum, line) => sum + line.completion_tokens, 0),
      cost: Math.round(lines.reduce((sum, line) => sum + line.cost, 0) * 1e8) / 1e8,
    };
  }
}

const tokensOf = (line: ChargedUsage) => line.prompt_tokens + line.completion_tokens;

function priced(route: ModelRoute, usage: TokenUsage): ChargedUsage {
  return {
    model: route.id,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    cost: costOf(route, usage),
  };
}

/** The ledger row of a finished request, beside what it used. */
export interface FinishedRequest {
  id: string;
  key: ApiKeyRecord | null;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  /** A client that closed the connection before the answer was complete. */
  abandoned: boolean;
  /** Sent by the console: its own reads (model lists, account pages, polling) are not usage; its playground calls are. */
  fromConsole: boolean;
}

/**
 * How a request is billed, from start to end: before the provider is called its estimated cost is
 * reserved against the balance and the spending limits (402 when it does not fit); the use case
 * charges what the provider reports (priced at the route's prices, the cost also sent in
 * X-Request-Cost); when the request is over, the ledger entry (and its balance debit) is written and
 * the reservation is settled at the real cost, or released.
 */
export class BillingService {
  constructor(
    private readonly accounts: AccountService,
    private readonly ledger: UsageLedger,
    private readonly models: ModelRegistry,
    private readonly defaultCompletionTokens: number,
    /** Where a failed settlement is reported. */
    private readonly onSettleError: (error: unknown) => void,
  ) {}

  /** Holds the request's estimated cost (from its JSON body) for `key`; throws 402 naming the limit it does not fit in. */
  reserve(billing: RequestBilling, key: ApiKeyRecord, body: unknown): Promise<void> {
    const fields =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    let route: ModelRoute | undefined;
    try {
      if (typeof fields?.model === 'string') route = billing.namedRoute = this.models.find(fields.model);
    } catch {
      // An unknown model: the handler answers 404; only the limits' remainder is checked here.
    }
    return this.hold(billing, key, route, fields);
  }

  /**
   * For a request whose body names an agent or a conversation rather than the model: its estimated
   * cost is held when its use case knows the chat turn (`UsageMeter.reserveTurn`), estimated from
   * that turn the way a chat body is.
   */
  reserveAtTurn(billing: RequestBilling, key: ApiKeyRecord): Promise<void> {
    billing.reserveAtTurn((route, turn) => this.hold(billing, key, route, turn));
    return Promise.resolve();
  }

  private async hold(
    billing: RequestBilling,
    key: ApiKeyRecord,
    route: ModelRoute | undefined,
    fields: Record<string, unknown> | undefined,
  ): Promise<void> {
    billing.reservation = await this.accounts.reserve(key, route && fields ? this.estimate(route, fields) : 0);
    billing.holder = { billing: this, key };
  }

  /** Tops the request's holds up to what it used so far plus a further call's estimate; 402 when that does not fit. */
  async holdFurther(
    billing: RequestBilling,
    key: ApiKeyRecord,
    route: ModelRoute,
    turn: Record<string, unknown>,
  ): Promise<void> {
    const first = billing.reservation;
    if (!first) return;
    const held = (billing.further ?? []).reduce((sum, hold) => sum + hold.amount, first.amount);
    const needed = (billing.usage?.cost ?? 0) + this.estimate(route, turn) - held;
    if (needed <= EPSILON) return;
    const hold = await this.accounts.reserve(key, needed);
    // The request was settled while the hold was on its way (its client left): nothing would release it.
    if (billing.reservation === first) (billing.further ??= []).push(hold);
    else this.accounts.release(hold).catch((error: unknown) => this.onSettleError(error));
  }

  /** What a call on `route` may cost at most: at the dearest of the route and the fallbacks it may move to. */
  private estimate(route: ModelRoute, fields: Record<string, unknown>): number {
    let most = estimateRequestCost(route, fields, this.defaultCompletionTokens);
    for (const id of route.fallbacks) {
      let fallback: ModelRoute;
      try {
        fallback = this.models.find(id);
      } catch {
        continue; // A fallback no route serves is skipped when the request runs too.
      }
      most = Math.max(most, estimateRequestCost(fallback, fields, this.defaultCompletionTokens));
    }
    return most;
  }

  /**
   * Bills a finished request: writes its ledger entry (requests with a key) and settles its
   * reservation. Returns what it was billed and the entry's commit, which the answer waits for.
   */
  settle(
    billing: RequestBilling,
    request: FinishedRequest,
  ): { usage: ChargedUsage | null; committed: Promise<void> | undefined } {
    const usage = billing.billed(request.abandoned);
    let committed: Promise<void> | undefined;
    if (request.key && !(request.fromConsole && !usage)) {
      committed = this.ledger.record({
        time: Date.now(),
        request_id: request.id,
        key_id: request.key.id,
        method: request.method,
        route: request.route,
        model: usage?.model ?? null,
        status: request.status,
        latency_ms: request.latencyMs,
        prompt_tokens: usage?.prompt_tokens ?? 0,
        completion_tokens: usage?.completion_tokens ?? 0,
        cost: usage?.cost ?? 0,
      });
    }
    this.release(billing, usage?.cost ?? 0);
    return { usage, committed };
  }

  /** Swaps the request's hold for its real cost (or drops it when nothing was charged). */
  release(billing: RequestBilling, actualCost = 0): void {
    const reservation = billing.reservation;
    if (!reservation) return;
    billing.reservation = undefined;
    const done = actualCost > 0 ? this.accounts.settle(reservation, actualCost) : this.accounts.release(reservation);
    done.catch((error: unknown) => this.onSettleError(error));
    for (const further of billing.further ?? [])
      this.accounts.release(further).catch((error: unknown) => this.onSettleError(error));
    billing.further = undefined;
  }
}
