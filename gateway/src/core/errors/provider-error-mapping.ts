import { MediaError } from '../../media/media-error.js';
import { fromMediaError, ProviderError } from '../../providers/_shared/provider-error.js';
import { GatewayError } from './gateway-error.js';

/** A backend's failure in the gateway's error shape; `providerId` names the backend in the message. */
export function toGatewayError(error: unknown, providerId: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof MediaError) return mediaToGatewayError(error);
  if (!(error instanceof ProviderError)) {
    return new GatewayError(
      502,
      'provider_failed',
      `The provider "${providerId}" failed unexpectedly: ${(error as Error)?.message ?? String(error)}`,
    );
  }
  const details = { param: error.param, retryAfter: error.retryAfter };
  switch (error.kind) {
    case 'connection':
      return new GatewayError(
        502,
        error.code ?? 'upstream_unreachable',
        `Could not reach the provider "${providerId}": ${error.message}`,
        details,
      );
    case 'timeout':
      return new GatewayError(
        504,
        error.code ?? 'upstream_timeout',
        `The provider "${providerId}" did not answer in time: ${error.message}`,
        { ...details, retryAfter: error.retryAfter ?? 5 },
      );
    case 'rate_limited':
      return new GatewayError(
        429,
        error.code ?? 'upstream_rate_limited',
        `The provider "${providerId}" is rate limiting: ${error.message}`,
        details,
      );
    case 'upstream':
      return new GatewayError(
        502,
        error.code ?? 'upstream_error',
        `The provider "${providerId}" failed: ${error.message}`,
        details,
      );
    case 'unavailable':
      return new GatewayError(503, error.code ?? 'engine_unavailable', error.message, {
        ...details,
        retryAfter: error.retryAfter ?? 10,
      });
    case 'invalid_request':
      return new GatewayError(422, error.code ?? 'invalid_request', error.message, details);
    case 'invalid_input':
      return new GatewayError(422, error.code ?? 'invalid_input', error.message, details);
    case 'too_large':
      return new GatewayError(413, error.code ?? 'input_too_large', error.message, details);
    case 'deadline':
      return new GatewayError(504, error.code ?? 'work_timeout', error.message, { ...details, type: 'server_error' });
    case 'upstream_auth':
      return new GatewayError(
        502,
        error.code ?? 'upstream_auth_failed',
        `The provider "${providerId}" refused the gateway's credentials (providers[].api_key in the config file): ${error.message}`,
        details,
      );
    case 'aborted':
      return new GatewayError(499, 'client_closed_request', 'The client closed the request.', {
        type: 'invalid_request_error',
      });
  }
}

/** A document media/ could not read, in the gateway's error shape: the status a provider's same failure gets. */
export function mediaToGatewayError(error: MediaError): GatewayError {
  return toGatewayError(fromMediaError(error), 'media');
}

/** `error` in the gateway's shape when media/ threw it; anything else as it was. */
export function fromMediaFailure(error: unknown): unknown {
  return error instanceof MediaError ? mediaToGatewayError(error) : error;
}
