import { fetch as undiciFetch } from 'undici';
import { checkedAgent, checkTarget, type AddressCheck } from './fetch-client-url.js';

/** A `fetch` with the standard signature, as the clients of other protocols take one (the MCP SDK's transports). */
export type FetchFunction = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for one configured origin that connects only where the address policy allows (the same
 * checks as a client-given URL: scheme, metadata names, every resolved address) and follows no
 * redirect, so a server cannot send the gateway somewhere the policy was not asked about. Throws the
 * policy's UrlRefusedError before anything is sent.
 */
export function policyCheckedFetch(
  origin: URL,
  check: AddressCheck,
): { fetch: FetchFunction; close: () => Promise<void> } {
  const port = checkTarget(origin, check, false);
  const agent = checkedAgent(origin, port, check);
  const fetch: FetchFunction = async (url, init) => {
    const target = new URL(url);
    if (target.origin !== origin.origin)
      throw new Error(`refused to fetch ${target.origin}: only ${origin.origin} is configured for '${check.param}'`);
    const response = await undiciFetch(target, {
      ...(init as object),
      redirect: 'manual',
      dispatcher: agent,
    } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  };
  return { fetch, close: () => agent.close() };
}
