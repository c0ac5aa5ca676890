import type { FastifyInstance, HTTPMethods } from 'fastify';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { errorResponses } from './common-schemas.js';

export interface NotServedOperation {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  /** Unset: kept out of /openapi.json (a wildcard under a documented path). */
  operationId?: string;
  summary?: string;
}

/**
 * Paths the official SDKs call that nothing here serves: each answers 404 `capability_not_served` with
 * `message` (what is missing and what to do instead), never the bare 404 of an unknown URL.
 */
export function registerNotServed(
  app: FastifyInstance,
  tag: string,
  operations: NotServedOperation[],
  message: (url: string) => string,
): void {
  for (const { method, url, operationId, summary } of operations) {
    const schema = operationId
      ? { tags: [tag], operationId, summary, response: { ...errorResponses } }
      : { hide: true };
    app.route({
      method,
      url,
      schema,
      handler: async () => {
        throw new GatewayError(404, 'capability_not_served', message(url), { param: null });
      },
    });
  }
}
