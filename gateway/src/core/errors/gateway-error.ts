export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'insufficient_quota'
  | 'upstream_error'
  | 'server_error';

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  502: 'upstream_error',
  503: 'server_error',
  504: 'upstream_error',
};

/** The statuses that always carry Retry-After. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Every error the gateway answers with. The message says what went wrong and how to fix it;
 * `code` is stable for machines; `param` names the offending field.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly retryAfter?: number;

  constructor(
    status: number,
    code: string,
    message: string,
    details: { param?: string | null; retryAfter?: number; type?: ErrorType } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
    this.status = status;
    this.code = code;
    this.type = details.type ?? TYPE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
    this.param = details.param ?? null;
    this.retryAfter = details.retryAfter ?? (RETRYABLE_STATUSES.has(status) ? 1 : undefined);
  }

  toBody(): ErrorBody {
    return errorBody({ message: this.message, type: this.type, param: this.param, code: this.code });
  }
}

export interface ErrorDetails {
  message: string;
  type: ErrorType;
  param: string | null;
  code: string;
}

/**
 * SPEC's flat error, plus the same fields nested under `error`, where OpenAI's clients (the openai
 * SDKs, LangChain, the Vercel AI SDK) read the message, code and param; without it they report
 * only the status.
 */
export interface ErrorBody extends ErrorDetails {
  object: 'error';
  error: ErrorDetails;
}

export const errorBody = (details: ErrorDetails): ErrorBody => ({ object: 'error', ...details, error: details });

export const invalidRequest = (code: string, message: string, param?: string) =>
  new GatewayError(422, code, message, { param });
export const notFound = (code: string, message: string, param?: string) =>
  new GatewayError(404, code, message, { param });
