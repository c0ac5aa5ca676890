/** The database cannot be used (unreachable, or its schema is newer than this gateway); the message is one line for the user. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/** Socket errors and PostgreSQL's connection-exception (08…) and shutdown (57P0…) codes. */
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|08[0-9A-Z]{3}|57P0[123])$/;
/** What the pg client says when the server goes away or does not answer in time. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection ended/i;

/** Whether `error` says the database cannot be reached now (as opposed to a query it refused). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) || UNAVAILABLE_MESSAGES.test(error.message);
}
