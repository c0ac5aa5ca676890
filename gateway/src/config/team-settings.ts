import { ConfigError } from './config-error.js';

/** Team mode's part of the run contract (docs/team-mode.md). */
export interface TeamSettings {
  /** GATEWAY_REDIS_URL: shared counters, reservations and fan-out; absent, the gateway runs alone. */
  redisUrl?: string;
  /** GATEWAY_REDIS_PREFIX: prefix of every Redis key and channel, so deployments can share a Redis. */
  redisPrefix: string;
  /** GATEWAY_DATABASE_URL: PostgreSQL for every instance's state; absent, SQLite in the data folder. */
  databaseUrl?: string;
}

function checkUrl(name: string, value: string, schemes: string[]): void {
  let scheme: string;
  try {
    scheme = new URL(value).protocol.slice(0, -1);
  } catch {
    throw new ConfigError(
      `${name}: "${value.replace(/\/\/[^@/]*@/, '//***@')}" is not a URL (expected ${schemes[0]}://host:port)`,
    );
  }
  if (!schemes.includes(scheme))
    throw new ConfigError(
      `${name}: the scheme must be ${schemes.map((s) => `${s}://`).join(' or ')}, not ${scheme}://`,
    );
}

/**
 * GATEWAY_REDIS_URL, GATEWAY_DATABASE_URL and GATEWAY_INSTANCES. PostgreSQL needs Redis unless
 * GATEWAY_INSTANCES=1 says the gateway is alone.
 */
export function loadTeamSettings(env: NodeJS.ProcessEnv): TeamSettings {
  const redisUrl = env.GATEWAY_REDIS_URL?.trim() || undefined;
  const databaseUrl = env.GATEWAY_DATABASE_URL?.trim() || undefined;
  const instances = env.GATEWAY_INSTANCES?.trim() || undefined;
  if (instances !== undefined && !/^[1-9]\d*$/.test(instances))
    throw new ConfigError(`GATEWAY_INSTANCES: "${instances}" is not a positive whole number`);
  if (redisUrl) checkUrl('GATEWAY_REDIS_URL', redisUrl, ['redis', 'rediss']);
  if (databaseUrl) {
    checkUrl('GATEWAY_DATABASE_URL', databaseUrl, ['postgres', 'postgresql']);
    if (!redisUrl && instances !== '1') {
      throw new ConfigError(
        'GATEWAY_DATABASE_URL is set but GATEWAY_REDIS_URL is not: several gateways on one database need Redis for their shared limits and changes. Set GATEWAY_REDIS_URL=redis://host:6379, or GATEWAY_INSTANCES=1 if this gateway runs alone.',
      );
    }
  }
  return { redisUrl, redisPrefix: env.GATEWAY_REDIS_PREFIX?.trim() || 'switchyard:', databaseUrl };
}
