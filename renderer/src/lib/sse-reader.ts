import { createParser } from 'eventsource-parser';
import { errorFromBody, isErrorFrame } from './gateway-error';

/**
 * Incremental parser for `text/event-stream` (`eventsource-parser`): feed it text in chunks cut
 * anywhere, get back the `data` payload of every event completed so far (multi-line data joined with "\n").
 */
export class SseParser {
  private ready: string[] = [];
  private parser = createParser({ onEvent: (event) => this.ready.push(event.data) });

  push(chunk: string): string[] {
    this.parser.feed(chunk);
    return this.ready.splice(0);
  }

  /** Flushes an event left unterminated when the stream closed. */
  end(): string[] {
    return this.push('\n\n');
  }
}

/**
 * Reads an SSE body of JSON frames until `[DONE]`. An `{"object":"error"}` frame is thrown as a
 * GatewayError, so a failure mid-stream is never a silent end.
 */
export async function* readSseJson<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const payloads = done
        ? [...parser.push(decoder.decode()), ...parser.end()]
        : parser.push(decoder.decode(value, { stream: true }));
      for (const payload of payloads) {
        if (payload.trim() === '[DONE]') return;
        const frame = JSON.parse(payload) as unknown;
        if (isErrorFrame(frame)) throw errorFromBody(frame, 200);
        yield frame as T;
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
