import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayOptions } from '../../src/config/load-options.js';

// docker-compose.yml cannot be run here (no images can be pulled): this checks it against the run
// contract instead, and loads each instance's options from it as the gateway would.
const root = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed compose file
const compose = parse(read('docker-compose.yml'), { merge: true }) as any;
const gateways = Object.keys(compose.services as object).filter((name) => name.startsWith('gateway-'));
/** Compose's `${VAR:?message}` with the value the operator would set. */
const COMPOSE_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const substituted = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      String(value)
        .replace(/\$\{SWITCHYARD_ADMIN_KEY[^}]*\}/, 'sk-sy-compose-0123456789abcdef0123')
        .replace(/\$\{SWITCHYARD_SECRET_KEY[^}]*\}/, COMPOSE_SECRET_KEY),
    ]),
  );
const mountTarget = (service: { volumes: string[] }, source: string) =>
  service.volumes.map((volume) => volume.split(':')).find(([from]) => from === source)?.[1];
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)![1]);

describe('the docker-compose.yml team-mode example', () => {
  it('runs PostgreSQL 15, Redis 7, three gateways and a proxy, the gateways starting once both are healthy', () => {
    expect(compose.services.postgres.image).toMatch(/^postgres:15/);
    expect(compose.services.redis.image).toMatch(/^redis:7/);
    expect(compose.services.postgres.healthcheck.test).toContain('pg_isready');
    expect(compose.services.redis.healthcheck.test).toContain('ping');
    expect(gateways).toEqual(['gateway-1', 'gateway-2', 'gateway-3']);
    for (const name of gateways) {
      expect(compose.services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(Object.keys(compose.services.proxy.depends_on)).toEqual(gateways);
  });

  it('gives every gateway the same config file, database, Redis and shared files volume, its own instance id, and a readiness health check', async () => {
    const ids = new Set<string>();
    for (const name of gateways) {
      const service = compose.services[name];
      const env = substituted(service.environment);
      expect(env.GATEWAY_CONFIG).toBe(mountTarget(service, './deploy/gateway.yaml'));
      expect(env.GATEWAY_FILES_DIR).toBe(mountTarget(service, 'files'));
      expect(compose.volumes).toHaveProperty('files');
      expect(new URL(env.GATEWAY_DATABASE_URL).hostname).toBe('postgres');
      expect(new URL(env.GATEWAY_REDIS_URL).hostname).toBe('redis');
      ids.add(env.GATEWAY_INSTANCE_ID);
      expect(service.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${env.GATEWAY_PORT}/health/readiness`);

      // The gateway accepts this environment and config file, in team mode.
      const options = await loadGatewayOptions({
        env: { ...env, GATEWAY_CONFIG: join(root, 'deploy/gateway.yaml'), GATEWAY_DATA_DIR: '/var/lib/switchyard' },
      });
      expect(options.team).toMatchObject({ databaseUrl: env.GATEWAY_DATABASE_URL, redisUrl: env.GATEWAY_REDIS_URL });
      expect(options.filesDir).toBe('/srv/switchyard-files');
      // One secret key for every instance: each can read the providers' keys the others stored.
      expect(options.secretKey).toBe(COMPOSE_SECRET_KEY);
      expect(options.server.instanceId).toBe(name);
      expect(options.host).toBe('0.0.0.0');
      // Docker sends SIGKILL after stop_grace_period: the drain and the grace period must fit in it.
      expect(seconds(service.stop_grace_period) * 1000).toBeGreaterThan(
        options.server.drainDelayMs + options.server.shutdownGraceMs,
      );
    }
    expect(ids.size).toBe(3);
  });

  it('has the proxy balance the three gateways, checking /health/readiness', () => {
    expect(compose.services.proxy.image).toMatch(/^caddy:2/);
    expect(mountTarget(compose.services.proxy, './deploy/Caddyfile')).toBe('/etc/caddy/Caddyfile');
    const caddyfile = read('deploy/Caddyfile');
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1].trim().split(/\s+/);
    expect(upstreams).toEqual(gateways.map((name) => `${name}:${compose.services[name].environment.GATEWAY_PORT}`));
    expect(caddyfile).toMatch(/health_uri \/health\/readiness/);
  });

  it('builds the image on Node 24 with npm ci and npm run build, and runs the CLI that npm run serve runs', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^FROM node:24-/m);
    expect(dockerfile).toMatch(/RUN npm ci/);
    expect(dockerfile).toMatch(/npm run build/);
    // The image runs the CLI with the same V8 flags as `npm run serve` (the idle-memory setting).
    const serveFlags = /^node ((?:--\S+ )*)scripts\/serve\.mjs$/
      .exec((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.serve)?.[1]
      .trim()
      .split(' ')
      .filter(Boolean);
    expect(serveFlags).toBeDefined();
    expect(dockerfile).toContain(
      `CMD ${JSON.stringify(['node', ...(serveFlags ?? []), 'dist/gateway/src/cli.js'])}`.replaceAll(',', ', '),
    );
    expect(read('scripts/serve.mjs')).toContain("'dist/gateway/src/cli.js'");
  });
});
