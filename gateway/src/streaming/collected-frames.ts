import type { FrameSink } from './sse-writer.js';

/**
 * A stream's frames gathered into one text instead of written as they come: the body of an event
 * stream whose events were all at hand (a cache hit's replay), sent in one write once complete.
 * Never behind, never closed by a client: nothing is sent until it is whole.
 */
export class CollectedFrames implements FrameSink {
  text = '';
  private ended = false;
  readonly destroyed = false;
  readonly closed = false;
  readonly writableNeedDrain = false;

  constructor(
    /** Shown each frame until it says the frame is the stream's first content (time to first token). */
    private firstContent?: (frame: string) => boolean,
  ) {}

  write(frame: string): boolean {
    if (this.firstContent?.(frame)) this.firstContent = undefined;
    this.text += frame;
    return true;
  }

  end(callback: () => void): void {
    this.ended = true;
    callback();
  }

  get writableFinished(): boolean {
    return this.ended;
  }

  once(): this {
    return this;
  }

  off(): this {
    return this;
  }
}
