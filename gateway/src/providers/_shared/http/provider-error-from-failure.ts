import { ProviderError } from '../provider-error.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** Which part of the exchange failed; it decides the wording of a timeout. */
export type ExchangePhase = 'headers' | 'body';

/** Maps a thrown error (undici, socket, abort) to the one error a provider throws. */
export function providerErrorFromFailure(
  providerName: string,
  error: unknown,
  signal: AbortSignal,
  phase: ExchangePhase,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) return new ProviderError('aborted', 'The request was cancelled by the client.', { cause: error });

  const code = errorCode(error);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ProviderError('timeout', `Could not connect to ${providerName} in time.`, {
        retryAfter: 5,
        code: 'upstream_connect_timeout',
        cause: error,
      });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ProviderError('timeout', `${providerName} did not start answering in time.`, {
        retryAfter: 5,
        cause: error,
      });
    case 'UND_ERR_BODY_TIMEOUT':
      return new ProviderError('timeout', `${providerName} stopped sending data mid-response.`, {
        retryAfter: 5,
        cause: error,
      });
    default:
      break;
  }
  if (code !== undefined && CONNECTION_CODES.has(code)) {
    const where = phase === 'headers' ? 'before it answered' : 'mid-response';
    return new ProviderError('connection', `The connection to ${providerName} failed ${where} (${code}).`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('upstream', `The exchange with ${providerName} failed: ${message}`, { cause: error });
}

/** The error code of an error, of the first error of an AggregateError (happy eyeballs), or of its cause. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if (error instanceof AggregateError && error.errors.length > 0) return errorCode(error.errors[0]);
  if ('cause' in error) return errorCode(error.cause);
  return undefined;
}
