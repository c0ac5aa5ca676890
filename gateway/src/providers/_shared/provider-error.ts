import { MediaError, type MediaErrorKind } from '../../media/media-error.js';

/**
 * The one error a provider throws. Core maps it to the gateway's error shape and decides whether
 * to retry or fall back (only when `beforeFirstByte` and the kind is retryable).
 */
export type ProviderErrorKind =
  /** Could not connect, connection reset before any response. Retryable. */
  | 'connection'
  /** No first byte / idle too long. Retryable before the first byte; 504. */
  | 'timeout'
  /** Upstream 429 or a local queue that is full. Retryable; 429. */
  | 'rate_limited'
  /** Upstream 5xx or a broken response. Retryable before the first byte; 502. */
  | 'upstream'
  /** Engine or model still loading; 503. */
  | 'unavailable'
  /** The request is wrong for this backend (upstream 400/422, unsupported parameter); not retried; 400/422. */
  | 'invalid_request'
  /** The input data is unusable (corrupt image, encrypted PDF); 422. */
  | 'invalid_input'
  /** The input exceeds a limit (pages, pixels, bytes, duration); 413. */
  | 'too_large'
  /** Local work on the input ran out of its time budget; 504, not retried (the same input would again). */
  | 'deadline'
  /** The provider's own key was refused; 502 (our client's key is fine). */
  | 'upstream_auth'
  /** The request was aborted by the client. */
  | 'aborted';

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /** Seconds, when the backend said or we know. */
  readonly retryAfter?: number;
  readonly upstreamStatus?: number;
  readonly param?: string;
  /** Stable machine code for the error body, when a provider knows a better one. */
  readonly code?: string;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    details: { retryAfter?: number; upstreamStatus?: number; param?: string; code?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.retryAfter = details.retryAfter;
    this.upstreamStatus = details.upstreamStatus;
    this.param = details.param;
    this.code = details.code;
  }

  get retryable(): boolean {
    return (
      this.kind === 'connection' || this.kind === 'timeout' || this.kind === 'rate_limited' || this.kind === 'upstream'
    );
  }
}

const KIND_OF_MEDIA_ERROR: Record<MediaErrorKind, ProviderErrorKind> = {
  invalid_document: 'invalid_input',
  too_large: 'too_large',
  too_slow: 'deadline',
  cancelled: 'aborted',
};

/** A document media/ could not read, as a provider reports it: the same code, message and field. */
export function fromMediaError(error: MediaError): ProviderError {
  return new ProviderError(KIND_OF_MEDIA_ERROR[error.kind], error.message, {
    code: error.code,
    param: error.param,
    cause: error,
  });
}

/** Throws `error` as the provider's own: a MediaError as fromMediaError makes it, anything else as it was. */
export function rethrowAsProviderError(error: unknown): never {
  throw error instanceof MediaError ? fromMediaError(error) : error;
}
