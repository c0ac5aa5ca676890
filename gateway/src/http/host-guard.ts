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

/**
 * DNS-rebinding guard: a gateway bound to loopback only answers requests whose Host names a
 * loopback address (or a configured name), so a web page on another origin cannot reach it
 * through a hostile DNS name that resolves to 127.0.0.1.
 */
export function registerHostGuard(app: FastifyInstance, boundHost: string, allowedHosts: () => string[]): void {
  if (!isLoopbackAddress(boundHost)) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.host;
    const name = header ? hostnameOf(header) : undefined;
    if (
      name === undefined ||
      isLoopbackAddress(name) ||
      name.endsWith('.localhost') ||
      allowedHosts().some((host) => host.toLowerCase() === name)
    )
      return done();
    done(
      new GatewayError(
        403,
        'host_not_allowed',
        `Host "${name}" is not allowed for a gateway bound to ${boundHost}; add it to the allowed hosts (Settings in the console, or server.allowed_hosts in the config file) if you trust it.`,
      ),
    );
  });
}
