/** What a deployment used in the current minute, against its rpm and tpm. */
export interface MinuteUsage {
  requests: number;
  tokens: number;
}

/**
 * Per-minute request and token counts of deployments (keyed by route and deployment), the
 * counters usage-based routing and every deployment's rpm/tpm read. Solo mode counts in memory;
 * team mode counts in Redis so every instance sees the same minute (team/redis-deployment-usage.ts).
 */
export interface DeploymentUsage {
  /** This minute's counts as this instance last saw them. */
  used(key: string): MinuteUsage;
  /** Counts one request unless the deployment is at its rpm or tpm this minute (then false). */
  claim(key: string, rpm: number | undefined, tpm: number | undefined): boolean | Promise<boolean>;
  addTokens(key: string, tokens: number): void;
}

/** The minute a time falls in (fixed one-minute windows, as providers count rpm and tpm). */
export function minuteOf(ms: number): number {
  return Math.floor(ms / 60_000);
}

/** Counts in this process's memory (solo mode). */
export class LocalDeploymentUsage implements DeploymentUsage {
  private readonly counts = new Map<string, MinuteUsage & { minute: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  used(key: string): MinuteUsage {
    return this.current(key);
  }

  claim(key: string, rpm: number | undefined, tpm: number | undefined): boolean {
    const count = this.current(key);
    if ((rpm !== undefined && count.requests >= rpm) || (tpm !== undefined && count.tokens >= tpm)) return false;
    count.requests++;
    return true;
  }

  addTokens(key: string, tokens: number): void {
    this.current(key).tokens += tokens;
  }

  private current(key: string): MinuteUsage & { minute: number } {
    const minute = minuteOf(this.now());
    let count = this.counts.get(key);
    if (!count || count.minute !== minute) {
      count = { minute, requests: 0, tokens: 0 };
      this.counts.set(key, count);
    }
    return count;
  }
}
