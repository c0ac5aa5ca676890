import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FrameSink } from './sse-writer.js';

/**
 * The body of one streamed response, as the Readable Fastify pipes into the response, written to
 * frame by frame (`write`, `end`) without a Writable side (docs/performance.md says why). Frames
 * written in the same turn of the event loop (an upstream chunk usually carries several) are pushed
 * as one chunk, so one socket write instead of one write (and one chunked-encoding frame) each;
 * frames that arrive apart still go out at the next turn. When the reader falls behind (the client
 * does not read), `write` says so and 'drain' follows once it asks for more. The end corks the socket
 * over its turn, so a stream that ends in it (its frames, `[DONE]` and the end of the chunked body)
 * leaves in one system call.
 */
export class CoalescedFrames extends Readable implements FrameSink {
  private pending: string[] = [];
  private scheduled = false;
  private behind = false;
  private ending = false;
  /** The producer is done: what is queued waits for `end`, to leave with the stream's last frame. */
  private holding = false;

  constructor(
    private readonly socket: Socket | null,
    /** Shown each frame until it says the frame is the stream's first content (time to first token). */
    private firstContent?: (frame: string) => boolean,
  ) {
    // Frames stay strings on their way to the response (no copy into a Buffer per chunk).
    super({ encoding: 'utf8' });
  }

  /** Queues one frame; false when the reader is behind and the writer should wait for 'drain'. */
  write(frame: string): boolean {
    if (this.ending || this.destroyed) return false;
    if (this.firstContent?.(frame)) this.firstContent = undefined;
    this.pending.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        if (!this.holding) this.pushPending();
      });
    }
    return !this.behind;
  }

  /**
   * The producer wrote its last frame but the end follows a little later (the stream's usage is
   * recorded in between): the frames queued in this turn leave with the end, in the same socket write,
   * instead of one write now and another for the end. Frames of earlier turns have left already.
   */
  holdForEnd(): void {
    this.holding = true;
  }

  /** Pushes what is queued and ends the body; `callback` runs once the reader has taken all of it. */
  end(callback: () => void): void {
    if (this.ending) return;
    this.ending = true;
    // The socket, not the response: corking a chunked ServerResponse on Node 24 ends the body after the first frame.
    const socket = this.socket;
    socket?.cork();
    this.pushPending();
    this.once('end', callback);
    this.push(null);
    setImmediate(() => socket?.uncork());
  }

  get writableNeedDrain(): boolean {
    return this.behind;
  }

  /** True once the body ended and the reader took all of it. */
  get writableFinished(): boolean {
    return this.readableEnded;
  }

  override _read(): void {
    if (!this.behind) return;
    this.behind = false;
    this.emit('drain');
  }

  private pushPending(): void {
    if (this.pending.length === 0 || this.destroyed) return;
    const frames = this.pending;
    this.pending = [];
    if (!this.push(frames.length === 1 ? frames[0] : frames.join(''))) this.behind = true;
  }
}
