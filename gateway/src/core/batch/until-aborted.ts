/** The work's result, or undefined as soon as `signal` aborts (the work's own result or failure is then ignored). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work
      .then(
        (value) => (signal.aborted ? resolve(undefined) : resolve(value)),
        (error: unknown) => (signal.aborted ? resolve(undefined) : reject(error)),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
