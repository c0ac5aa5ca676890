import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestBilling } from '../core/billing/billing-service.js';

const bills = new WeakMap<FastifyRequest, RequestBilling>();

/**
 * Every request carries its bill (`request.billing`, the meter its use case charges); before a
 * billable route's handler runs, core/billing reserves its estimated cost (402 when it does not fit),
 * and a charged cost leaves in X-Request-Cost. The usage recorder settles the bill.
 */
export function registerSpendReservation(app: FastifyInstance): void {
  app.decorateRequest('billing', {
    getter(this: FastifyRequest): RequestBilling {
      let billing = bills.get(this);
      if (!billing) bills.set(this, (billing = new RequestBilling()));
      return billing;
    },
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.apiKey || !request.routeOptions.config?.billable) return done();
    app.services.billing.reserve(request.billing, request.apiKey, request.body).then(() => done(), done);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const usage = request.billing.usage;
    if (usage && !reply.raw.headersSent) reply.header('X-Request-Cost', String(usage.cost));
    done(null, payload);
  });
}
