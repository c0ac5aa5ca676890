/** Held back of a stream's text: more than the longest match a rule looks for, so none is released half-seen. */
const HOLD = 256;
/** With moderation rules, text is released (and judged) in pieces of at least this many characters. */
const MODERATION_PIECE = 400;

/**
 * A stream's text checked as it goes, choice by choice: each choice's newest HOLD characters wait
 * until more arrives or the choice ends, so a redaction never misses a match split across chunks
 * and a block stops the stream before the matching text leaves.
 */
export class TextStreamGuard {
  private readonly pending = new Map<number, string>();

  constructor(
    /** The rules over `text`: the part before `cut` checked and released, the rest kept; throws when a rule blocks. */
    private readonly release: (text: string, cut: number) => { text: string; rest: string },
    /** Moderation of each released piece; throws when a rule blocks. */
    private readonly moderate?: (text: string) => Promise<void>,
  ) {}

  /** More text of choice `index`: what may be sent now. */
  async push(index: number, text: string): Promise<string> {
    const pending = (this.pending.get(index) ?? '') + text;
    if (pending.length <= (this.moderate ? HOLD + MODERATION_PIECE : HOLD)) {
      this.pending.set(index, pending);
      return '';
    }
    return this.out(index, pending, pending.length - HOLD);
  }

  /** Choice `index` ended: the rest of its text, checked. */
  async end(index: number): Promise<string> {
    const pending = this.pending.get(index) ?? '';
    const text = pending ? await this.out(index, pending, pending.length) : '';
    this.pending.delete(index);
    return text;
  }

  /** The choices still open when the stream ends without their finish, each with its rest. */
  async endAll(): Promise<{ index: number; text: string }[]> {
    const rests: { index: number; text: string }[] = [];
    for (const index of [...this.pending.keys()]) {
      const text = await this.end(index);
      if (text) rests.push({ index, text });
    }
    return rests;
  }

  private async out(index: number, pending: string, cut: number): Promise<string> {
    const { text, rest } = this.release(pending, cut);
    this.pending.set(index, rest);
    if (this.moderate && text.trim()) await this.moderate(text);
    return text;
  }
}
