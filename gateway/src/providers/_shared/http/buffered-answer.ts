import type { Dispatcher } from 'undici';
import { AnswerHandler, type AnswerRules } from './answer-handler.js';

/** Dispatches one request and resolves with a 2xx answer's whole body; anything else rejects with the rules' error. */
export function dispatchBuffered(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  rules: AnswerRules,
): Promise<{ statusCode: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new BufferedAnswer(signal, rules, resolve, reject));
  });
}

class BufferedAnswer extends AnswerHandler {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    signal: AbortSignal,
    rules: AnswerRules,
    private readonly resolve: (answer: { statusCode: number; body: Buffer }) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super(signal, rules);
  }

  protected started(controller: Dispatcher.DispatchController): void {
    // An answer that declares more than the cap is refused before any of it is read.
    if (Number(this.headers['content-length']) > this.rules.maxBytes) this.refuseTooLarge(controller);
  }

  protected data(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.byteLength;
    if (this.size <= this.rules.maxBytes) this.chunks.push(chunk);
    else this.refuseTooLarge(controller);
  }

  protected ended(): void {
    if (!this.settle()) return;
    this.resolve({
      statusCode: this.statusCode,
      body: this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size),
    });
  }

  protected failedWith(error: Error): void {
    if (this.settle()) this.reject(error);
  }

  private refuseTooLarge(controller: Dispatcher.DispatchController): void {
    const error = this.rules.tooLarge(this.statusCode);
    this.failedWith(error);
    controller.abort(error);
  }
}
