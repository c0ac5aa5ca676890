interface OutageLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

interface Outage {
  since: number;
  lastEvent: number;
  lastLine: number;
  /** Requests refused since the last line. */
  refusedSinceLine: number;
  refusedTotal: number;
}

/** The error codes of requests refused because a shared dependency is away. */
const OUTAGE_CODES: Record<string, { what: string; message: string }> = {
  database_unavailable: {
    what: 'database',
    message: 'database unavailable: requests that need it get 503 database_unavailable until it answers',
  },
  team_store_unavailable: {
    what: 'redis',
    message: 'team mode: Redis unavailable: limited and paid requests get 503 team_store_unavailable until it is back',
  },
};

/** Reminders come at most this often while an outage lasts. */
export const OUTAGE_REMINDER_MS = 30_000;

/**
 * Log lines for a dependency that does not answer (the database, the shared Redis) without a flood:
 * one line when the outage starts, then at most one reminder every 30 s with the number of requests
 * refused since the last line, and one line when it is back. An outage that nothing has reported for
 * two reminder periods is over, so the next failure starts a new one with a fresh first line.
 */
export class OutageWarnings {
  private readonly outages = new Map<string, Outage>();

  constructor(
    private readonly log: OutageLogger,
    private readonly remindEveryMs = OUTAGE_REMINDER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `what` did not answer: `message` is logged at the first failure of an outage; `refusedRequests`
   * (0 for a background write or a lost connection) are counted for the next reminder.
   */
  refused(what: string, message: string, details: object = {}, refusedRequests = 1): void {
    const now = this.now();
    let outage = this.outages.get(what);
    if (outage && now - outage.lastEvent > 2 * this.remindEveryMs) {
      this.outages.delete(what);
      outage = undefined;
    }
    if (!outage) {
      this.outages.set(what, {
        since: now,
        lastEvent: now,
        lastLine: now,
        refusedSinceLine: 0,
        refusedTotal: refusedRequests,
      });
      this.log.warn({ ...details, outage: what }, message);
      return;
    }
    outage.lastEvent = now;
    outage.refusedSinceLine += refusedRequests;
    outage.refusedTotal += refusedRequests;
    if (now - outage.lastLine < this.remindEveryMs) return;
    const seconds = Math.round((now - outage.since) / 1000);
    this.log.warn(
      {
        ...details,
        outage: what,
        refused: outage.refusedSinceLine,
        refused_total: outage.refusedTotal,
        outage_s: seconds,
      },
      `${what} still unavailable after ${seconds} s: ${outage.refusedSinceLine} requests refused in the last ${Math.round((now - outage.lastLine) / 1000)} s`,
    );
    outage.lastLine = now;
    outage.refusedSinceLine = 0;
  }

  /**
   * Counts a request refused with an outage's error code (`database_unavailable`, `team_store_unavailable`)
   * in place of one log line per request; false for any other code (log it as usual).
   */
  refusedRequest(code: string): boolean {
    const outage = OUTAGE_CODES[code];
    if (!outage) return false;
    this.refused(outage.what, outage.message);
    return true;
  }

  /** `what` answers again: one line with how long it was away and how many requests were refused. */
  recovered(what: string, message: string): void {
    const outage = this.outages.get(what);
    // Nothing to report when no outage was logged.
    if (!outage) return;
    this.outages.delete(what);
    this.log.info(
      { outage: what, refused_total: outage.refusedTotal, outage_s: Math.round((this.now() - outage.since) / 1000) },
      message,
    );
  }

  /** Whether an outage of `what` is under way (reported within two reminder periods). */
  ongoing(what: string): boolean {
    const outage = this.outages.get(what);
    return outage !== undefined && this.now() - outage.lastEvent <= 2 * this.remindEveryMs;
  }
}
