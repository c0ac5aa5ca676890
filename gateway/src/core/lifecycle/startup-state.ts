import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';

/**
 * The gateway is `starting` until every engine that warms at start has finished (or failed:
 * a failed engine reports itself unavailable, and the gateway is then up without it).
 */
export class StartupState {
  private readonly warming = new Set<string>();
  private stopping = false;

  /** SIGTERM: from now on readiness answers 503 `draining`, so a balancer stops sending here. */
  beginDrain(): void {
    this.stopping = true;
  }

  get draining(): boolean {
    return this.stopping;
  }

  warm(providers: Iterable<ProviderInstance>, onError: (providerId: string, error: unknown) => void): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const provider of providers) {
      if (!provider.warm) continue;
      this.warming.add(provider.id);
      jobs.push(
        provider
          .warm()
          .catch((error: unknown) => onError(provider.id, error))
          .finally(() => this.warming.delete(provider.id)),
      );
    }
    return Promise.all(jobs).then(() => undefined);
  }

  get status(): 'starting' | 'ok' {
    return this.warming.size > 0 ? 'starting' : 'ok';
  }

  get warmingEngines(): string[] {
    return [...this.warming];
  }

  /** Seconds since the process started (the gateway may be rebuilt inside a longer-lived Electron process). */
  get uptimeSeconds(): number {
    return process.uptime();
  }
}
