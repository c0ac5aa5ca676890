/** One dispatched server-sent event. `event` is 'message' unless the stream named it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses a byte stream into server-sent events (WHATWG EventSource rules): `data:` lines joined
 * with '\n', `event:`/`id:` fields, `:` comments ignored, LF / CRLF / CR line ends, and chunk
 * boundaries anywhere (inside a line, a multi-byte character or a CRLF pair).
 * Unlike the browser, a final event without its closing blank line is still dispatched: some
 * servers end the stream right after the last `data:` line.
 */
export async function* readSseEvents(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseLineParser();
  let pending = '';
  // A chunk that ends in '\r' may be the first half of a CRLF pair; the '\n' then belongs to it.
  let skipLeadingLf = false;

  for await (const chunk of source) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
    if (text.length > 0) skipLeadingLf = false;
    pending += text;

    let start = 0;
    for (let i = 0; i < pending.length; i++) {
      const ch = pending.charCodeAt(i);
      if (ch !== 0x0a && ch !== 0x0d) continue;
      const event = parser.line(pending.slice(start, i));
      if (event) yield event;
      if (ch === 0x0d) {
        if (i + 1 < pending.length) {
          if (pending.charCodeAt(i + 1) === 0x0a) i++;
        } else {
          skipLeadingLf = true;
        }
      }
      start = i + 1;
    }
    pending = pending.slice(start);
  }

  pending += decoder.decode();
  if (pending.length > 0) {
    const event = parser.line(pending);
    if (event) yield event;
  }
  const last = parser.line('');
  if (last) yield last;
}

class SseLineParser {
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  /** Feeds one line (without its line end); returns an event when a blank line completes one. */
  line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        // `retry` and unknown fields carry nothing a client of an API stream needs.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hasData = this.data.length > 0;
    const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) event.id = this.id;
    this.data = [];
    this.event = '';
    return hasData ? event : undefined;
  }
}
