import { isDatabaseUnavailable } from '../../store/store-error.js';
import type { OutageWarnings } from './outage-warnings.js';

interface ErrorLogger {
  error(object: object, message: string): void;
}

/**
 * Where a background writer (the usage ledger, the request log) reports a failed write: a database
 * that does not answer is an outage (one line, then reminders: OutageWarnings), anything else (a
 * refused statement, a full disk) is logged each time. The writer keeps what it could not write.
 */
export function databaseWriteErrorReporter(
  log: ErrorLogger,
  outages: OutageWarnings,
  what: { duringOutage: string; otherwise: string },
): (error: unknown) => void {
  return (error) => {
    if (isDatabaseUnavailable(error)) outages.refused('database', what.duringOutage, { err: error }, 0);
    else log.error({ err: error }, what.otherwise);
  };
}
