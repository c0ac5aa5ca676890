/** Tries of a Redis step at start, and the wait before the second (doubled each time: 0.25, 0.5, 1 s). */
export const START_ATTEMPTS = 4;
const FIRST_WAIT_MS = 250;

/**
 * Runs a Redis step of the start again, with backoff, when it fails: a Redis slow to answer (or an
 * event loop busy past the 2 s command timeout) must not stop an instance. The last failure is
 * thrown as it came, so a Redis that is really absent still ends the start with its one-line reason
 * (about 2 s later).
 */
export async function retryAtStart<T>(
  step: () => Promise<T>,
  onRetry: (error: unknown, attempt: number) => void = () => undefined,
  attempts = START_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts) throw error;
      onRetry(error, attempt);
      await new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS * 2 ** (attempt - 1)));
    }
  }
}
