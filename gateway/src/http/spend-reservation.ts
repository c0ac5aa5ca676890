import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestBilling, type BillingService } from '../core/billing/billing-service.js';
import { pendingAdmission } from './authentication.js';
import { routeOf } from './request-context.js';
import { recordQuickStage } from './request-tracing.js';

/**
 * Every request carries its bill (`request.billing`, the meter its use case charges); before a
 * billable route's handler runs, core/billing reserves its estimated cost (402 when it does not fit;
 * an `'at-turn'` route's when its chat turn is known), and a charged cost leaves in X-Request-Cost. The usage recorder settles the bill.
 */
export function registerSpendReservation(app: FastifyInstance, billing: BillingService): void {
  // Made on first read: a request refused by an earlier onRequest hook still has one for the recorder to settle.
  app.decorateRequest('madeBill', null);
  app.decorateRequest('billing', {
    getter(this: FastifyRequest): RequestBilling {
      return (this.madeBill ??= new RequestBilling());
    },
  });
  app.addHook('preHandler', (request, _reply, hookDone) => {
    const billable = routeOf(request).config?.billable;
    if (!request.apiKey || !billable) return hookDone();
    const startedAt = performance.now();
    const done = (error?: Error): void => {
      recordQuickStage(request, 'reserve spend', startedAt, error);
      hookDone(error);
    };
    const reserving =
      billable === 'at-turn'
        ? billing.reserveAtTurn(request.billing, request.apiKey)
        : billing.reserve(request.billing, request.apiKey, request.body);
    const admission = pendingAdmission(request);
    if (!admission) return void reserving.then(() => done(), done);
    // Team mode: the reservation went out while the rate verdict was on its way; the verdict decides first.
    void Promise.allSettled([admission, reserving]).then(([admitted, reserved]) => {
      if (admitted.status === 'rejected') {
        billing.release(request.billing);
        return done(admitted.reason as Error);
      }
      if (reserved.status === 'rejected') return done(reserved.reason as Error);
      done();
    });
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const usage = request.billing.usage;
    if (usage && !reply.raw.headersSent) reply.header('X-Request-Cost', String(usage.cost));
    done(null, payload);
  });
}
