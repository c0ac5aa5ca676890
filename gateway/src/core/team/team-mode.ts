import { ConfigError } from '../../config/config-error.js';
import { openRedis, redactedRedisUrl, type RedisConnection } from '../../store/redis/redis-connection.js';
import type { AccountService } from '../account/account-service.js';
import type { BatchWork } from '../batch/batch-work.js';
import type { KeyService } from '../account/key-service.js';
import { RedisRateLimiter } from '../account/redis-rate-limiter.js';
import { retryAtStart } from '../../store/redis/retry-at-start.js';
import { RedisResponseCache } from '../../store/redis/redis-response-cache.js';
import type { CacheLimits } from '../../store/response-cache-store.js';
import { RedisSpendReservations } from '../billing/redis-spend-reservations.js';
import type { CommittedSpend } from '../billing/spend-reservations.js';
import type { BreakerTransition } from '../routing/circuit-breaker.js';
import type { ModelRegistry } from '../routing/model-registry.js';
import type { ProviderBreakers } from '../routing/provider-breakers.js';
import type { RequestLog } from '../request-log/request-log.js';
import type { OutageWarnings } from '../errors/outage-warnings.js';
import type { ConfigFileReload } from '../settings/config-file-reload.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { McpService } from '../mcp/mcp-service.js';
import { shareConfigReloads } from './shared-config-reloads.js';
import { shareRequestLog } from './shared-request-log.js';
import { RedisDeploymentUsage } from './redis-deployment-usage.js';

export interface TeamModeSettings {
  redisUrl: string;
  /** Key and channel prefix of this deployment. */
  prefix: string;
  instanceId: string;
}

/** What changes on one instance and must reach the others. */
type Change = { from: string } & ChangeBody;
type ChangeBody =
  | { topic: 'keys' | 'models' | 'account' | 'settings' | 'mcp' }
  | { topic: 'breaker'; provider: string; transition: BreakerTransition }
  | { topic: 'batch-stopped'; batchId: string }
  | { topic: 'batch-queued' };

/** The services whose local state team mode keeps in step across instances. */
export interface SharedServices {
  keys: KeyService;
  models: ModelRegistry;
  accounts: AccountService;
  breakers: ProviderBreakers;
  /** Providers, routes and server settings the console edits (stored in the shared database). */
  settings: SettingsService;
  /** The MCP servers the console edits (stored in the shared database). */
  mcp: McpService;
  /** The configured providers, whose breakers may already be open on other instances. */
  providerIds: string[];
  /** Batches and eval runs cancelled or expired on one instance stop their lines in flight on every instance. */
  batchWork: BatchWork;
}

interface TeamLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Team mode (GATEWAY_REDIS_URL): the rate limits and spend reservations counted in Redis, and the
 * changes that other instances must see within a second published on one Redis channel: keys
 * (created, changed, revoked), model state, the account, and circuit breaker transitions. Each
 * instance keeps its short local caches (key lookups, model state) and drops them when told, so a
 * request reads no database. An open breaker is also kept as a key that expires with its cool-down,
 * so an instance that starts later finds it.
 */
export class TeamMode {
  readonly rateLimiter: RedisRateLimiter;
  private reservations: RedisSpendReservations | undefined;
  private readonly channel: string;
  private closing = false;

  private constructor(
    private readonly redis: RedisConnection,
    private readonly settings: TeamModeSettings,
    private readonly log: TeamLogger,
    /** Lost Redis: one line per outage and periodic reminders, not a line per reconnect attempt. */
    private readonly outages?: OutageWarnings,
  ) {
    this.rateLimiter = new RedisRateLimiter(redis);
    this.channel = `${redis.prefix}changes`;
  }

  /** Connects to Redis; throws a ConfigError naming the URL when it does not answer (the command line prints it without a stack). */
  static async start(settings: TeamModeSettings, log: TeamLogger, outages?: OutageWarnings): Promise<TeamMode> {
    let redis: RedisConnection;
    try {
      redis = await openRedis(settings.redisUrl, settings.prefix);
    } catch (error) {
      throw new ConfigError(`GATEWAY_REDIS_URL: ${(error as Error).message}`);
    }
    log.info({ prefix: settings.prefix, redis: redactedRedisUrl(settings.redisUrl) }, 'team mode: connected to Redis');
    return new TeamMode(redis, settings, log, outages);
  }

  /** The shared spend reservations, seeded from what the database says was spent. */
  /** The response cache every instance shares, bounded by `limits`. */
  responseCache(limits: CacheLimits): RedisResponseCache {
    return new RedisResponseCache(this.redis, limits);
  }

  spendReservations(storedSpend: (keyId: string) => Promise<CommittedSpend>): RedisSpendReservations {
    this.reservations = new RedisSpendReservations(this.redis, storedSpend);
    return this.reservations;
  }

  /** The per-minute counters of balanced routes' deployments, shared by every instance. */
  deploymentUsage(): RedisDeploymentUsage {
    return new RedisDeploymentUsage(this.redis, (error) =>
      this.lostRedis("team mode: could not count a deployment's usage in Redis; counting on this instance alone", {
        err: error,
      }),
    );
  }

  /** Announces this instance's changes and follows the others'. */
  async join(services: SharedServices): Promise<void> {
    const { keys, models, accounts, breakers, settings, mcp, providerIds, batchWork } = services;
    const reloadSettings = () =>
      void settings
        .reload()
        .catch((error: unknown) => this.log.warn({ err: error }, 'team mode: could not apply a settings change'));
    const reloadMcp = () =>
      void mcp
        .reload()
        .catch((error: unknown) => this.log.warn({ err: error }, 'team mode: could not apply an MCP server change'));
    keys.announceChangesTo(() => this.publish({ topic: 'keys' }));
    settings.announceChangesTo(() => this.publish({ topic: 'settings' }));
    mcp.announceChangesTo(() => this.publish({ topic: 'mcp' }));
    models.announceChangesTo(() => this.publish({ topic: 'models' }));
    accounts.announceChangesTo(() => {
      if (!this.reservations) return this.publish({ topic: 'account' });
      void this.reservations.forgetCommitted().then(
        () => this.publish({ topic: 'account' }),
        (error: unknown) => this.log.warn({ err: error }, 'team mode: could not reset the shared spend counters'),
      );
    });
    breakers.announceTo((provider, transition) => {
      const key = this.breakerKey(provider);
      const stored =
        transition.state === 'open'
          ? this.redis.commands.set(key, JSON.stringify(transition), 'PX', transition.remainingMs)
          : this.redis.commands.del(key);
      stored.catch((error: unknown) =>
        this.log.warn({ err: error, provider }, 'team mode: could not share a breaker transition'),
      );
      this.publish({ topic: 'breaker', provider, transition });
    });
    batchWork.announceStopsTo((batchId) => this.publish({ topic: 'batch-stopped', batchId }));
    batchWork.announceQueuedTo(() => this.publish({ topic: 'batch-queued' }));

    this.redis.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let change: Change;
      try {
        change = JSON.parse(text) as Change;
      } catch {
        return;
      }
      if (change.from === this.settings.instanceId) return;
      switch (change.topic) {
        case 'keys':
          return keys.forgetCached();
        case 'models':
          return this.reread('the model state', () => models.reloadState());
        case 'account':
          // The limits may be lower now: what this instance's leases hold goes back first.
          this.reservations?.retireLeases();
          return this.reread('the account', () => accounts.reload());
        case 'settings':
          return reloadSettings();
        case 'mcp':
          return reloadMcp();
        case 'breaker':
          return breakers.follow(change.provider, change.transition);
        case 'batch-stopped':
          return batchWork.abortLines(change.batchId);
        case 'batch-queued':
          return batchWork.wakeQueue();
      }
    });
    this.redis.subscriber.on('close', () => this.closing || this.lostRedis());
    // Changes published while Redis was away were missed: forget everything cached.
    this.redis.onReconnect(() => {
      if (this.outages) this.outages.recovered('redis', 'team mode: Redis is back');
      else this.log.info({}, 'team mode: Redis is back');
      keys.forgetCached();
      this.reread('the model state', () => models.reloadState());
      this.reread('the account', () => accounts.reload());
      reloadSettings();
      reloadMcp();
      batchWork.wakeQueue();
    });
    // Asked again with backoff when slow (a busy start); without this channel the caches would go stale.
    await retryAtStart(
      () => this.redis.subscribe(this.channel),
      (error, attempt) =>
        this.log.warn({ err: error, attempt }, 'team mode: subscribing to the changes channel failed; trying again'),
    );
    // A slow answer here (a busy start) must not stop the start: the next transition is published anyway.
    await this.followOpenBreakers(breakers, providerIds).catch((error: unknown) =>
      this.log.warn({ err: error }, 'team mode: could not read the breakers open on other instances'),
    );
  }

  /** Fans the console's request log in from every instance, and prunes it on one at a time (shared-request-log.ts). */
  shareRequestLog(requestLog: RequestLog): Promise<void> {
    return shareRequestLog(this.redis, requestLog, {
      instanceId: this.settings.instanceId,
      onPublishError: (error, dropped) =>
        this.lostRedis('team mode: could not publish request log entries to the other instances', {
          err: error,
          dropped,
        }),
    });
  }

  /** Config-file reloads reach every instance (shared-config-reloads.ts). */
  shareConfigReloads(reloads: ConfigFileReload): Promise<void> {
    return shareConfigReloads(this.redis, reloads, {
      instanceId: this.settings.instanceId,
      warn: (object, message) => this.log.warn(object, message),
    });
  }

  /** Redis does not answer: one line per outage (then reminders) with OutageWarnings, else each time. */
  private lostRedis(
    message = 'team mode: lost Redis; limited and paid requests get 503 until it is back',
    details: object = {},
  ): void {
    if (this.outages) this.outages.refused('redis', message, details, 0);
    else this.log.warn(details, message);
  }

  /** Reads what another instance changed; a database that does not answer leaves the cached copy (logged). */
  private reread(what: string, read: () => Promise<void>): void {
    read().catch((error: unknown) => this.log.warn({ err: error }, `team mode: could not read ${what} again`));
  }

  /** Whether Redis answers now (for /status and readiness). */
  get connected(): boolean {
    return this.redis.commands.status === 'ready';
  }

  async close(): Promise<void> {
    this.closing = true;
    // The last answers' settlements wait for the end of their turn: sent now, or their holds would linger until they expire.
    await this.reservations?.flush();
    await this.rateLimiter.close();
    await this.redis.close();
  }

  private async followOpenBreakers(breakers: ProviderBreakers, providerIds: string[]): Promise<void> {
    for (const provider of providerIds) {
      const key = this.breakerKey(provider);
      const [text, remainingMs] = await Promise.all([this.redis.commands.get(key), this.redis.commands.pttl(key)]);
      if (!text || remainingMs <= 0) continue;
      const stored = JSON.parse(text) as BreakerTransition;
      if (stored.state === 'open') breakers.follow(provider, { ...stored, remainingMs });
    }
  }

  private breakerKey(provider: string): string {
    return `${this.redis.prefix}breaker:${provider}`;
  }

  private publish(change: ChangeBody): void {
    const message = JSON.stringify({ ...change, from: this.settings.instanceId });
    this.redis.commands
      .publish(this.channel, message)
      .catch((error: unknown) =>
        this.log.warn({ err: error, topic: change.topic }, 'team mode: could not publish a change'),
      );
  }
}
