import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import { finishCommonHeaders, startCommonHeaders } from './request-context.js';

/** What the router refuses before any hook runs, in the gateway's words. */
function fromRouterError(error: FastifyError, path: string): GatewayError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new GatewayError(400, 'invalid_path', `The path ${path} holds an invalid percent-encoding; encode path parameters with encodeURIComponent.`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError(414, 'path_parameter_too_long', 'A path parameter is longer than the gateway accepts; ids and model names are far shorter. Check the URL.');
    default:
      return new GatewayError(400, 'invalid_request', `The request could not be routed: ${error.message}`);
  }
}

/**
 * Fastify's `frameworkErrors` option: the router answers bad percent-encoding and over-long path
 * parameters itself, before the onRequest hooks, with a body of its own and none of the common
 * headers. This gives those answers the error shape and the headers every response carries.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  startCommonHeaders(request, reply);
  const path = request.url.split('?')[0];
  const mapped = fromRouterError(error, path.length > 200 ? `${path.slice(0, 200)}…` : path);
  reply.status(mapped.status);
  finishCommonHeaders(request, reply);
  void reply.send(mapped.toBody());
}
