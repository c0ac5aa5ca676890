import { errorFromBody, isErrorFrame } from './gateway-error';

/**
 * Incremental parser for `text/event-stream`: feed it text in chunks cut anywhere, get back the
 * `data` payload of every event completed so far (multi-line data joined with "\n").
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string): string[] {
    this.buffer += chunk;
    const events: string[] = [];
    let newline: number;
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A lone \r at the end of the buffer may be the first half of \r\n: wait for more.
      if (this.buffer[newline] === '\r' && newline === this.buffer.length - 1) break;
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + width);
      this.takeLine(line, events);
    }
    return events;
  }

  /** Flushes an event left unterminated when the stream closed. */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer) this.takeLine(this.buffer, events);
    this.buffer = '';
    this.takeLine('', events);
    return events;
  }

  private takeLine(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length) events.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
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
      const payloads = done ? [...parser.push(decoder.decode()), ...parser.end()] : parser.push(decoder.decode(value, { stream: true }));
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
