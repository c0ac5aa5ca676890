import { PgBoss } from 'pg-boss';
import { postgresConnection } from './database.js';
import { StoreError } from './store-error.js';

export type { Job, PgBoss } from 'pg-boss';

export interface JobQueueOptions {
  /** GATEWAY_DATABASE_URL. */
  url: string;
  /** The schema pg-boss keeps its tables in (its own, beside the gateway's tables). */
  schema: string;
  /** How often an instance looks for jobs whose instance died (missed heartbeats, expiry), in seconds. */
  superviseIntervalSeconds: number;
}

/**
 * pg-boss on the gateway's PostgreSQL database, in its own schema, created or migrated by pg-boss at
 * start (under its own lock, so instances starting together do not race). Started after the
 * gateway's migrations; the caller stops it.
 */
export async function openJobQueue(options: JobQueueOptions, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    ...postgresConnection(options.url),
    schema: options.schema,
    // Small: one connection polls while idle, a second lets a fetch and a completion overlap.
    max: 2,
    application_name: 'switchyard-batches',
    superviseIntervalSeconds: options.superviseIntervalSeconds,
    monitorIntervalSeconds: options.superviseIntervalSeconds,
    // No cron jobs: nothing of the gateway is scheduled through pg-boss.
    schedule: false,
  });
  boss.on('error', onError);
  try {
    await boss.start();
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined);
    throw new StoreError(
      `The batch queue (pg-boss, schema ${options.schema}) could not start: ${(error as Error).message}`,
    );
  }
  return boss;
}
