import { createParser } from 'eventsource-parser';

/** One dispatched server-sent event. `event` is 'message' unless the stream named it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses a byte stream into server-sent events with `eventsource-parser` (WHATWG EventSource
 * rules; chunk boundaries anywhere, including inside a multi-byte character or a CRLF pair).
 * Unlike the browser, a final event without its closing blank line is still dispatched: some
 * servers end the stream right after the last `data:` line.
 */
export async function* readSseEvents(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  for await (const batch of readSseEventBatches(source)) yield* batch;
}

/**
 * The same events, in the batches one chunk of the source completes (an upstream chunk often carries
 * many): a hot loop takes a batch per turn instead of one async-generator step per event.
 */
export async function* readSseEventBatches(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent[]> {
  const decoder = new TextDecoder('utf-8');
  const ready: SseEvent[] = [];
  // As in the browser, an event's id stays the stream's last event id until another `id:` line.
  let lastId: string | undefined;
  const parser = createParser({
    onEvent: ({ event, data, id }) => {
      lastId = id ?? lastId;
      ready.push(
        lastId === undefined ? { event: event ?? 'message', data } : { event: event ?? 'message', data, id: lastId },
      );
    },
  });

  for await (const chunk of source) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (ready.length > 0) yield ready.splice(0);
  }
  // Ends the last line and the last event, whether or not the stream did.
  parser.feed(`${decoder.decode()}\n\n`);
  if (ready.length > 0) yield ready.splice(0);
}
