import type { MessageChannel } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { GrayImage } from '../../ocr-layout/ocr-page.js';
import { MediaError, type MediaErrorKind } from '../media-error.js';

/** A job as a thread receives it: its payload, and the port that says it has started. */
export interface WorkEnvelope<P> {
  payload: P;
  started: MessageChannel['port2'];
}

/** What a job sends back across the thread boundary: a class does not survive it, so a failure travels as its fields. */
export type WorkOutcome<R> =
  { value: R } | { failure: { kind: MediaErrorKind; message: string; code: string; param?: string } };

/**
 * Wraps a function that runs on a work-pool thread: its result, or its failure as plain fields. Any
 * other exception comes from reading what the client sent (pdf.js on a broken cross-reference table, a
 * decoder on a truncated stream), so it answers 422; a stack overflow means the input nests or repeats
 * beyond what can be read, so 413.
 */
export function workTask<P, R>(
  run: (payload: P) => Promise<R> | R,
  transfer?: (value: R) => ArrayBuffer[],
): (job: WorkEnvelope<P>) => Promise<WorkOutcome<R>> {
  return async ({ payload, started }) => {
    // The job's time budget starts now, not while it waited in line for a thread.
    started.postMessage(0);
    started.close();
    try {
      const value = await run(payload);
      const outcome: WorkOutcome<R> = { value };
      if (!transfer) return outcome;
      // Moved, not copied: a rendered page's PNG is megabytes.
      return move({ [transferableSymbol]: transfer(value), [valueSymbol]: outcome }) as unknown as WorkOutcome<R>;
    } catch (error) {
      if (error instanceof MediaError)
        return { failure: { kind: error.kind, message: error.message, code: error.code, param: error.param } };
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      if (error instanceof RangeError && /call stack/i.test(reason)) {
        return {
          failure: {
            kind: 'too_large',
            message:
              "The document is too deeply nested or repetitive to read (it exceeded the reader's stack). Simplify or split it.",
            code: 'document_too_complex',
          },
        };
      }
      return {
        failure: {
          kind: 'invalid_document',
          message: `The document could not be read (corrupt or unsupported): ${reason}`,
          code: 'invalid_document',
        },
      };
    }
  };
}

/** The job's value, or its failure thrown again as the MediaError it was. */
export function unwrapOutcome<R>(outcome: WorkOutcome<R>): R {
  if ('value' in outcome) return outcome.value;
  const { kind, message, code, param } = outcome.failure;
  throw new MediaError(kind, message, { code, param });
}

/**
 * The image with its pixels in shared memory, so the jobs of a page on the work pool's threads read
 * them without a copy each (a 200-DPI page is 4 MB, a page at the pixel limit 40 MB). Copied once,
 * unless they are shared already.
 */
export function sharedGray(image: GrayImage): GrayImage {
  if (image.data.buffer instanceof SharedArrayBuffer) return image;
  const data = new Uint8Array(new SharedArrayBuffer(image.data.byteLength));
  data.set(image.data);
  return { width: image.width, height: image.height, data };
}
