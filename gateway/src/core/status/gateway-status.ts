import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { GatewayOptions } from '../../config/gateway-options.js';
import type { Capability } from '../../providers/contracts/capability.js';
import type { EngineStatus, ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { Database } from '../../store/database.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { BreakerSnapshot } from '../routing/circuit-breaker.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import type { StartupState } from '../lifecycle/startup-state.js';
import type { Health } from '../../wire/health-schema.js';
import { cannotServe, RouteHealth } from '../routing/route-health.js';

export interface ProviderStatus {
  id: string;
  type: string;
  /** upstream: an HTTP provider (it has a base URL), whose health is its breaker's; local: an engine that knows its own state. */
  kind: 'local' | 'upstream';
  state: EngineStatus['state'];
  detail?: string;
  breaker: BreakerSnapshot;
  /** The one verdict on its health (the same Settings and /v1/models give). */
  health: Health;
  /** The last test of the provider on this instance, if any. */
  last_test?: { ok: boolean; latency_ms: number };
}

export interface Readiness {
  /** `starting` while engines warm up, `unavailable` when the database does not answer, `draining` once a SIGTERM arrived. */
  status: 'ready' | 'starting' | 'unavailable' | 'draining';
  /** Seconds to wait before asking again, when not ready. */
  retryAfterSeconds?: number;
  checks: { database: 'ok' | 'unreachable'; engines: 'ok' | 'starting'; redis?: 'ok' | 'unreachable' };
  warming_engines: string[];
}

/** An instance id when none is configured: unique even for two gateways in one process. */
export function generatedInstanceId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;
}

/** What /status, /health and /metrics report: the gateway's own state, its engines and their breakers. */
export class GatewayStatus {
  readonly instanceId: string;
  private readonly health: RouteHealth;

  constructor(
    private readonly deps: {
      options: Pick<GatewayOptions, 'version' | 'server'>;
      startup: StartupState;
      models: ModelRegistry;
      providers: ReadonlyMap<string, ProviderInstance>;
      breakers: ProviderBreakers;
      health: RouteHealth;
      db: Database;
      instanceId: string;
      /** Whether a provider is an upstream HTTP provider (its entry has a base URL). */
      isUpstream?: (providerId: string) => boolean;
      /** The last test of a provider on this instance (Settings), if any. */
      lastTest?: (providerId: string) => { ok: boolean; latency_ms: number } | undefined;
      /** Team mode's link to Redis, when in team mode. */
      team?: { readonly connected: boolean };
    },
  ) {
    this.instanceId = deps.instanceId;
    this.health = deps.health;
  }

  report() {
    const { startup, options } = this.deps;
    const status = startup.status;
    const providers = this.providers();
    const ocr = this.capabilityHealth('ocr');
    const transcription = this.capabilityHealth('transcription');
    return {
      status,
      version: options.version,
      instance_id: this.instanceId,
      ...(this.deps.team ? { team: { redis: this.redisCheck()! } } : {}),
      uptime_seconds: Math.round(startup.uptimeSeconds * 1000) / 1000,
      checks: { asr: !cannotServe(transcription), ocr: !cannotServe(ocr) && status === 'ok' },
      capabilities: { ocr, transcription },
      engines: Object.fromEntries(
        providers.map(({ id, state, detail }) => [id, detail ? { state, detail } : { state }]),
      ),
      providers,
    };
  }

  providers(): ProviderStatus[] {
    return [...this.deps.providers.values()].map((provider) => {
      const { state, detail } = provider.status();
      const kind = this.deps.isUpstream?.(provider.id) ? 'upstream' : 'local';
      const test = this.deps.lastTest?.(provider.id);
      return {
        id: provider.id,
        type: provider.type,
        kind,
        state,
        ...(detail ? { detail } : {}),
        breaker: this.deps.breakers.snapshot(provider.id),
        health: this.health.provider(provider),
        ...(test ? { last_test: { ok: test.ok, latency_ms: test.latency_ms } } : {}),
      };
    });
  }

  async readiness(): Promise<Readiness> {
    const database = (await this.databaseReachable()) ? 'ok' : 'unreachable';
    const warming = this.deps.startup.warmingEngines;
    const engines = this.deps.startup.status === 'ok' ? 'ok' : 'starting';
    const status = this.deps.startup.draining
      ? 'draining'
      : database !== 'ok'
        ? 'unavailable'
        : engines !== 'ok'
          ? 'starting'
          : 'ready';
    const redis = this.redisCheck();
    return {
      status,
      ...(status === 'ready' ? {} : { retryAfterSeconds: status === 'starting' ? 10 : 5 }),
      checks: { database, engines, ...(redis ? { redis } : {}) },
      warming_engines: warming,
    };
  }

  private redisCheck(): 'ok' | 'unreachable' | undefined {
    if (!this.deps.team) return undefined;
    return this.deps.team.connected ? 'ok' : 'unreachable';
  }

  capabilityHealth(capability: Capability): Health {
    return this.health.capability(capability, this.deps.models.withCapability(capability));
  }

  /** A database that does not answer within 2 s counts as unreachable (a PostgreSQL server gone away would otherwise hold the probe). */
  private async databaseReachable(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer within 2 s')), 2000);
    });
    try {
      await Promise.race([this.deps.db.ping(), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
