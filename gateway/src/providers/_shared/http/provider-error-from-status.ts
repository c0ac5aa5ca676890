import { ProviderError } from '../provider-error.js';
import { parseRetryAfter } from './retry-after.js';
import { readUpstreamErrorDetails } from './upstream-error-details.js';

/** Maps a non-2xx upstream answer to the one error a provider throws. */
export function providerErrorFromStatus(
  providerName: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  bodyText: string,
): ProviderError {
  const details = readUpstreamErrorDetails(bodyText);
  const said = details.message ? `: ${details.message}` : '';
  const common = { upstreamStatus: status, param: details.param, code: details.code };
  const retryAfter = parseRetryAfter(headers);

  if (status === 429) {
    return new ProviderError('rate_limited', `${providerName} is rate limiting requests (HTTP 429)${said}`, {
      ...common,
      retryAfter,
    });
  }
  if (status === 401 || status === 403) {
    return new ProviderError(
      'upstream_auth',
      `${providerName} refused the gateway's credentials (HTTP ${status})${said}. Check the provider's api_key in the gateway config.`,
      { ...common, code: 'upstream_auth_failed' },
    );
  }
  if (status === 408) {
    return new ProviderError('timeout', `${providerName} timed out the request (HTTP 408)${said}`, {
      ...common,
      retryAfter: retryAfter ?? 5,
    });
  }
  if (status === 413) {
    return new ProviderError('too_large', `${providerName} says the request is too large (HTTP 413)${said}`, common);
  }
  if (status >= 400 && status < 500) {
    return new ProviderError(
      'invalid_request',
      details.message ?? `${providerName} rejected the request (HTTP ${status}).`,
      common,
    );
  }
  return new ProviderError('upstream', `${providerName} failed (HTTP ${status})${said}`, { ...common, retryAfter });
}
