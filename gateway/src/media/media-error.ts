/** What is wrong with a client's document, in media's own words. */
export type MediaErrorKind =
  /** Unreadable: empty, corrupt, encrypted, not a format media reads, or a page it does not have. */
  | 'invalid_document'
  /** Over a limit: pixels, stream bytes, operators, or the reader's memory or stack. */
  | 'too_large'
  /** Reading it ran past its time budget. */
  | 'too_slow'
  /** The request it was read for was cancelled. */
  | 'cancelled';

/**
 * The one error media/ throws: a document it cannot read, with a stable machine code (`corrupt_pdf`,
 * `image_too_large`, ...) and the request field or option to name. Core maps it to the gateway's
 * error shape; a provider that reads documents through media/ hands it on as its own ProviderError.
 */
export class MediaError extends Error {
  readonly kind: MediaErrorKind;
  readonly code: string;
  readonly param?: string;

  constructor(kind: MediaErrorKind, message: string, details: { code: string; param?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.name = 'MediaError';
    this.kind = kind;
    this.code = details.code;
    this.param = details.param;
  }
}
