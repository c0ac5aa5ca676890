import { errorFromResponse, GatewayError } from './gateway-error';
import { clientTag } from './console-client';
import { useSessionStore } from './session-store';

export interface GatewayRequestInit extends RequestInit {
  /** Overrides the signed-in key (the login screen validates a key before storing it). */
  apiKey?: string;
  /** How the key is sent; `/account/usage` accepts only the X-API-Key header. */
  keyHeader?: 'bearer' | 'x-api-key';
}

export function gatewayUrl(path: string): string {
  return `${useSessionStore.getState().baseUrl.replace(/\/$/, '')}${path}`;
}

/** fetch() against the gateway with the auth header; non-2xx answers throw a GatewayError. */
export async function gatewayFetch(path: string, init: GatewayRequestInit = {}): Promise<Response> {
  const { apiKey: override, keyHeader = 'bearer', headers: extra, ...rest } = init;
  const apiKey = override ?? useSessionStore.getState().apiKey;
  const headers = new Headers(extra);
  headers.set('X-Switchyard-Client', clientTag(rest.method, path));
  if (apiKey && keyHeader === 'bearer') headers.set('Authorization', `Bearer ${apiKey}`);
  if (apiKey && keyHeader === 'x-api-key') headers.set('X-API-Key', apiKey);
  let response: Response;
  try {
    response = await fetch(gatewayUrl(path), { ...rest, headers });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new GatewayError({
      message: 'The gateway cannot be reached. Is it running?',
      status: 0,
      type: 'network_error',
    });
  }
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (response.status === 401 && !override) {
      useSessionStore.getState().signOut(`You were signed out: ${error.message}`);
    }
    throw error;
  }
  return response;
}

export async function getJson<T>(path: string, init: GatewayRequestInit = {}): Promise<T> {
  const response = await gatewayFetch(path, init);
  return (await response.json()) as T;
}

export function jsonInit(body: unknown, init: GatewayRequestInit = {}): GatewayRequestInit {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  return { ...init, method: 'POST', headers, body: JSON.stringify(body) };
}

/** A JSON request with any method (PATCH, DELETE with a body, ...). */
export async function sendJson<T>(
  method: string,
  path: string,
  body: unknown,
  init: GatewayRequestInit = {},
): Promise<T> {
  return getJson<T>(path, { ...jsonInit(body, init), method });
}

export async function postJson<T>(path: string, body: unknown, init: GatewayRequestInit = {}): Promise<T> {
  return getJson<T>(path, jsonInit(body, init));
}
