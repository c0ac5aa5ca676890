import type { Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * The body of one streamed response. Frames written in the same turn of the event loop (an upstream
 * chunk usually carries several) leave as one chunk, so one socket write instead of one write (and
 * one chunked-encoding frame) each; frames that arrive apart still go out at the next turn. When the
 * reader falls behind, frames are passed on at once, so the writer sees the back-pressure. The socket
 * stays corked over the same turn, so a stream that ends in it (its frames, `[DONE]` and the end of
 * the chunked body) leaves in one system call.
 */
export class CoalescedFrames extends Transform {
  private pending: (string | Buffer)[] = [];
  private scheduled = false;

  constructor(
    private readonly socket: Socket | null,
    private onFirstFrame?: () => void,
  ) {
    super({ decodeStrings: false });
  }

  override _transform(chunk: string | Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.onFirstFrame) {
      this.onFirstFrame();
      this.onFirstFrame = undefined;
    }
    this.pending.push(chunk);
    if (this.readableLength >= this.readableHighWaterMark) {
      // Pushed here, Transform holds the callback until the reader asks for more.
      this.pushPending();
    } else if (!this.scheduled) {
      this.scheduled = true;
      // The socket, not the response: corking a chunked ServerResponse on Node 24 ends the body after the first frame.
      const socket = this.socket;
      socket?.cork();
      setImmediate(() => {
        this.scheduled = false;
        if (!this.destroyed) this.pushPending();
        socket?.uncork();
      });
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.pushPending();
    callback();
  }

  private pushPending(): void {
    const frames = this.pending;
    if (frames.length === 0) return;
    this.pending = [];
    if (frames.every((frame) => typeof frame === 'string')) this.push(frames.join(''));
    else this.push(Buffer.concat(frames.map((frame) => (typeof frame === 'string' ? Buffer.from(frame) : frame))));
  }
}
