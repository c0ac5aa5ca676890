import { randomBytes } from 'node:crypto';
import type { WebRequestLike } from './electron-surface.js';

/**
 * The console window never holds the Owner key. The preload hands the page a per-launch session
 * token instead, which the page sends like any key (Authorization: Bearer, or X-API-Key); the main
 * process swaps it for the real key on requests to the gateway's own origin, at the network layer
 * the page cannot read. Script that somehow ran in the page could use the gateway while the app is
 * open, but could not carry the key away; the token is worthless anywhere else.
 */
export function newConsoleSessionToken(): string {
  return `sk-sy-console-session-${randomBytes(24).toString('base64url')}`;
}

export interface ConsoleAuth {
  gatewayUrl: string;
  sessionToken: string;
  apiKey: string;
}

function sameOrigin(url: string, gatewayUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(gatewayUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The request headers with the session token replaced by the key, or undefined to leave them as
 * they are (another origin, or no token). Header names are matched case-insensitively.
 */
export function withConsoleKey(
  url: string,
  headers: Record<string, string | string[]>,
  auth: ConsoleAuth,
): Record<string, string | string[]> | undefined {
  if (!sameOrigin(url, auth.gatewayUrl)) return undefined;
  let changed = false;
  const next: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' && value === `Bearer ${auth.sessionToken}`) {
      next[name] = `Bearer ${auth.apiKey}`;
      changed = true;
    } else if (lower === 'x-api-key' && value === auth.sessionToken) {
      next[name] = auth.apiKey;
      changed = true;
    } else {
      next[name] = value;
    }
  }
  return changed ? next : undefined;
}

/** Installs the swap on the console window's session, for the gateway's origin only. */
export function installConsoleAuth(webRequest: WebRequestLike, auth: ConsoleAuth): void {
  const origin = new URL(auth.gatewayUrl).origin;
  webRequest.onBeforeSendHeaders({ urls: [`${origin}/*`] }, (details, callback) => {
    const requestHeaders = withConsoleKey(details.url, details.requestHeaders, auth);
    callback(requestHeaders ? { requestHeaders } : {});
  });
}
