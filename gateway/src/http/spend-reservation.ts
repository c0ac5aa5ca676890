import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ModelRoute } from '../core/routing/model-registry.js';
import { estimateRequestCost } from '../core/billing/spend-estimate.js';
import type { Reservation } from '../core/billing/spend-reservations.js';

const reservations = new WeakMap<FastifyRequest, Reservation>();

/**
 * Before a billable route's handler calls a provider, its estimated cost is reserved against the
 * balance and the spending limits (402 when it does not fit); the usage recorder settles it with the
 * real cost, or releases it, once the request is recorded.
 */
export function registerSpendReservation(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const key = request.apiKey;
    if (!key || !request.routeOptions.config?.billable) return;
    const { accounts, models, options } = app.services;
    const body = request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : undefined;
    let route: ModelRoute | undefined;
    try {
      if (typeof body?.model === 'string') route = models.find(body.model);
    } catch {
      // An unknown model: the handler answers 404; only the limits' remainder is checked here.
    }
    const amount = route && body ? estimateRequestCost(route, body, options.account.defaultCompletionTokens) : 0;
    reservations.set(request, await accounts.reserve(key, amount));
  });
}

/** Called once the request's usage is in the ledger: swaps the hold for the real cost. */
export function settleReservation(app: FastifyInstance, request: FastifyRequest, actualCost: number): void {
  const reservation = reservations.get(request);
  if (!reservation) return;
  reservations.delete(request);
  const { accounts } = app.services;
  const done = actualCost > 0 ? accounts.settle(reservation, actualCost) : accounts.release(reservation);
  done.catch((error: unknown) => request.log.error({ err: error }, 'could not settle a spend reservation'));
}
