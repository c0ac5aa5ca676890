/**
 * A stream of events that can also be read in the batches they arrived in (the events of one
 * upstream chunk, often a dozen). Read per event it is an ordinary async iterable; a hot loop reads
 * `batches()` instead and takes one async step per batch rather than one per event through every
 * layer in between. Either way it is read once.
 */
export interface BatchedEvents<T> extends AsyncIterable<T> {
  batches(): AsyncIterable<readonly T[]>;
}

/** Events whose source yields them in batches. Stopping a reader (break, return) stops the source. */
export function batchedEvents<T>(source: AsyncIterable<readonly T[]>): BatchedEvents<T> {
  return {
    batches: () => source,
    async *[Symbol.asyncIterator]() {
      for await (const batch of source) for (const event of batch) yield event;
    },
  };
}

/** The batches of any event stream: its own when it has them, each event alone otherwise. */
export function batchesOf<T>(events: AsyncIterable<T>): AsyncIterable<readonly T[]> {
  return isBatched(events) ? events.batches() : singletons(events);
}

function isBatched<T>(events: AsyncIterable<T>): events is BatchedEvents<T> {
  return typeof (events as Partial<BatchedEvents<T>>).batches === 'function';
}

async function* singletons<T>(events: AsyncIterable<T>): AsyncGenerator<readonly T[]> {
  for await (const event of events) yield [event];
}
