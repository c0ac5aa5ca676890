import { EventChannel } from './event-channel.js';

export type EventProducer<T> = (emit: (event: T) => void, signal: AbortSignal) => Promise<void>;

/**
 * Starts a generation that emits events and resolves once the first event exists, so an error
 * before it (queue full, model load failure, bad request) rejects instead of failing mid-stream.
 * The producer's signal fires when the request is aborted or the consumer stops iterating.
 */
export async function startEventStream<T>(
  requestSignal: AbortSignal,
  produce: EventProducer<T>,
): Promise<AsyncIterable<T>> {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(requestSignal.reason);
  if (requestSignal.aborted) forwardAbort();
  else requestSignal.addEventListener('abort', forwardAbort, { once: true });

  const channel = new EventChannel<T>(() => controller.abort(new Error('stream consumer stopped reading')));
  produce((event) => channel.push(event), controller.signal)
    .then(
      () => channel.end(),
      (error: unknown) => channel.fail(error),
    )
    .finally(() => requestSignal.removeEventListener('abort', forwardAbort));
  await channel.first();
  return channel;
}
