import type { UpstreamFileFetcher } from '../../providers/contracts/provider-instance.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { AddressPolicy } from './address-policy.js';
import { fetchClientUrl, UrlRefusedError } from './fetch-client-url.js';

/** How long one file an upstream names may take, redirects included. */
export const UPSTREAM_FILE_TIMEOUT_MS = 60_000;

/**
 * The fetcher providers get for URLs their upstream answers with (OpenAI's `data[].url` images):
 * the same address policy, limits and redirect checks as a client's URL, except that the
 * provider's own origin is trusted, so a provider configured on 127.0.0.1 can still host its
 * images. An upstream cannot make the gateway reach anything else on the machine or the network.
 */
export function upstreamFileFetcher(policy: AddressPolicy, timeoutMs = UPSTREAM_FILE_TIMEOUT_MS): UpstreamFileFetcher {
  return async (url, { trustedOrigin, maxBytes, signal, providerId }) => {
    const target = URL.canParse(url) ? new URL(url) : undefined;
    if (!target)
      throw new GatewayError(
        502,
        'upstream_malformed_response',
        `The provider "${providerId}" answered with a file URL that is not a URL.`,
      );
    try {
      return await fetchClientUrl(target, {
        policy,
        maxBytes,
        timeoutMs,
        signal,
        param: 'data[].url',
        trusted: (hop) => hop.origin === trustedOrigin,
      });
    } catch (error) {
      if (signal.aborted || !(error instanceof GatewayError)) throw error;
      if (error instanceof UrlRefusedError) {
        throw new GatewayError(
          502,
          'upstream_url_not_allowed',
          `The provider "${providerId}" answered with a file at ${error.url.protocol}//${error.url.host}, which the gateway does not fetch because ${error.reason}; only the provider's own origin and public addresses are fetched. Add the address to server.url_fetch_allow in the config file if you trust it.`,
        );
      }
      throw new GatewayError(
        502,
        'upstream_file_unavailable',
        `The provider "${providerId}" answered with a file URL the gateway could not fetch: ${error.message}`,
      );
    }
  };
}
