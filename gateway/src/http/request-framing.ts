import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return hostHeader.split(':')[0].toLowerCase();
}

/** HTTP/1.1 names exactly one Host (RFC 9112, section 3.2); the HTTP/1 parser also lets `HTTP/2.0` through. */
function framingProblem(request: IncomingMessage): GatewayError | undefined {
  const version = request.httpVersion;
  if (version !== '1.1' && version !== '1.0') {
    return new GatewayError(
      505,
      'http_version_not_supported',
      `HTTP/${version.slice(0, 10)} is not supported; the gateway speaks HTTP/1.1 (and 1.0).`,
    );
  }
  const raw = request.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1)
    return new GatewayError(400, 'malformed_request', 'The request names more than one Host header; send exactly one.');
  if (hosts === 0 && version === '1.1')
    return new GatewayError(
      400,
      'malformed_request',
      'An HTTP/1.1 request needs a Host header; send one (HTTP clients add it themselves).',
    );
  return undefined;
}

/**
 * DNS-rebinding guard: a gateway bound to loopback only answers requests whose Host names a
 * loopback address (or a configured name), so a web page on another origin cannot reach it
 * through a hostile DNS name that resolves to 127.0.0.1.
 */
function foreignHost(
  header: string | undefined,
  boundHost: string,
  allowedHosts: () => string[],
): GatewayError | undefined {
  const name = header ? hostnameOf(header) : undefined;
  if (
    name === undefined ||
    isLoopbackAddress(name) ||
    name.endsWith('.localhost') ||
    allowedHosts().some((host) => host.toLowerCase() === name)
  )
    return undefined;
  return new GatewayError(
    403,
    'host_not_allowed',
    `Host "${name}" is not allowed for a gateway bound to ${boundHost}; add it to the allowed hosts (Settings in the console, or server.allowed_hosts in the config file) if you trust it.`,
  );
}

/**
 * Refuses, in the error shape with the common headers, a request the gateway does not answer: one
 * whose framing Node accepts but HTTP does not (no Host, two Hosts, a version other than 1.x; Node's
 * own Host check, `requireHostHeader`, answers a bare 400, so app.ts turns it off in favour of this
 * one), and on a gateway bound to loopback one whose Host is foreign (`foreignHost`).
 */
export function registerRequestFraming(app: FastifyInstance, boundHost: string, allowedHosts: () => string[]): void {
  const guarded = isLoopbackAddress(boundHost);
  app.addHook('onRequest', (request, _reply, done) =>
    done(
      framingProblem(request.raw) ?? (guarded ? foreignHost(request.headers.host, boundHost, allowedHosts) : undefined),
    ),
  );
}
