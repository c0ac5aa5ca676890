import type { ServerResponse } from 'node:http';

/** The error frame sent when a stream fails after it has started (ARCHITECTURE.md, the path of one request). */
export interface SseErrorFrame {
  message: string;
  type: string;
  code: string;
  param?: string | null;
}

const SENT = Promise.resolve(true);
const SENT_NOTHING = Promise.resolve(false);

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  // Tells reverse proxies (nginx) not to buffer the stream.
  'x-accel-buffering': 'no',
};

/**
 * Where SseWriter's frames go: a response, any Writable, or a streamed body (CoalescedFrames).
 * `write` says false when the reader is behind; 'drain' follows when it caught up, 'close' when it is gone.
 */
export interface FrameSink {
  write(frame: string): boolean;
  end(callback: () => void): unknown;
  readonly writableNeedDrain: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  readonly closed: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * Writes `data: <json>\n\n` frames to a response, waiting for 'drain' when the socket's buffer is
 * full, and notices a client that goes away: `signal` aborts then, so the caller can cancel the
 * upstream request or the local generation.
 *
 * With a `ServerResponse` whose head is not sent yet, the first frame sends status 200 and
 * `SSE_HEADERS` plus `headers` (headers already set on the response are kept).
 */
export class SseWriter {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private ended = false;

  constructor(
    private readonly target: FrameSink | ServerResponse,
    private readonly headers: Record<string, string> = {},
  ) {
    this.signal = this.controller.signal;
    const onClose = (): void => {
      if (!this.target.writableFinished) this.controller.abort(new Error('The client closed the connection.'));
    };
    if (this.target.destroyed || this.target.closed) onClose();
    else this.target.once('close', onClose);
  }

  /** True once the client disconnected (or the stream was otherwise destroyed) before the end. */
  get closed(): boolean {
    return this.signal.aborted || this.target.destroyed;
  }

  /** Sends one JSON frame; resolves when it may send the next. Resolves false if the client is gone. */
  send(data: unknown): Promise<boolean> {
    return this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends one frame whose JSON text the caller serialised (chatChunkFrames); resolves as `send` does. */
  sendJsonText(json: string): Promise<boolean> {
    return this.write(`data: ${json}\n\n`);
  }

  /** Sends one JSON frame under an event name (`event: <name>`), as OpenAI's Responses API streams do. */
  sendEvent(event: string, data: unknown): Promise<boolean> {
    return this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the response without `[DONE]`, for streams whose last event says they are over. */
  finish(): Promise<void> {
    return this.end();
  }

  /** Sends `data: [DONE]` and ends the response. */
  async done(): Promise<void> {
    await this.write('data: [DONE]\n\n');
    await this.end();
  }

  /**
   * Ends a started stream with an error frame and `[DONE]`, never a silent close. The fields are
   * also nested under `error`, where OpenAI's stream readers look for them and throw.
   */
  async fail(error: SseErrorFrame): Promise<void> {
    const details = { message: error.message, type: error.type, param: error.param ?? null, code: error.code };
    await this.send({ object: 'error', ...details, error: details });
    await this.done();
  }

  /**
   * Sends one frame whose JSON text the caller serialised (chatChunkFrames), for a loop that writes
   * many frames and waits only when it must: false when the socket's buffer is full and the caller
   * should wait for `drained()` before the next. After the end or once the client left, the frame is
   * dropped (`closed` says so).
   */
  queueJsonText(json: string): boolean {
    if (this.ended || this.closed) return true;
    return this.writeFrame(`data: ${json}\n\n`);
  }

  /** Resolves when the socket took what was buffered (or the client left); false if the client is gone. */
  async drained(): Promise<boolean> {
    if (this.closed) return false;
    if (!this.target.writableNeedDrain) return true;
    await new Promise<void>((resolve) => {
      const settle = (): void => {
        this.target.off('drain', settle);
        this.target.off('close', settle);
        resolve();
      };
      this.target.once('drain', settle);
      this.target.once('close', settle);
    });
    return !this.closed;
  }

  /** Not async: a frame the socket takes at once (nearly all) needs no promise of its own. */
  private write(frame: string): Promise<boolean> {
    try {
      if (this.ended || this.closed) return SENT_NOTHING;
      if (this.writeFrame(frame)) return this.closed ? SENT_NOTHING : SENT;
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.drained();
  }

  private writeFrame(frame: string): boolean {
    this.writeHead();
    return this.target.write(frame);
  }

  private end(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    if (this.closed) return Promise.resolve();
    this.writeHead();
    return new Promise((resolve) => {
      // A client that leaves while the last bytes are flushed means 'close' and never 'finish'.
      this.target.once('close', resolve);
      this.target.end(() => resolve());
    });
  }

  private writeHead(): void {
    if (!isServerResponse(this.target) || this.target.headersSent) return;
    for (const [name, value] of Object.entries({ ...SSE_HEADERS, ...this.headers })) {
      if (!this.target.hasHeader(name)) this.target.setHeader(name, value);
    }
    this.target.writeHead(200);
    this.target.flushHeaders();
  }
}

function isServerResponse(target: FrameSink | ServerResponse): target is ServerResponse {
  return 'writeHead' in target && typeof target.writeHead === 'function';
}
