/** The gateway's one error shape, carried as a thrown Error so callers can show `message`. */
export class GatewayError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(init: {
    message: string;
    status: number;
    type?: string;
    code?: string | null;
    param?: string | null;
    retryAfterSeconds?: number | null;
  }) {
    super(init.message);
    this.name = 'GatewayError';
    this.status = init.status;
    this.type = init.type ?? 'error';
    this.code = init.code ?? null;
    this.param = init.param ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

interface ErrorBody {
  object?: unknown;
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
  error?: unknown;
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Builds a GatewayError from a parsed error body (a response or an SSE error frame). */
export function errorFromBody(body: unknown, status: number, retryAfterSeconds: number | null = null): GatewayError {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  // Upstream-style bodies nest the error: {"error": {...}}.
  const inner = (b.error && typeof b.error === 'object' ? b.error : b) as ErrorBody;
  return new GatewayError({
    message: asString(inner.message) ?? `The gateway answered ${status}.`,
    status,
    type: asString(inner.type) ?? undefined,
    code: asString(inner.code),
    param: asString(inner.param),
    retryAfterSeconds,
  });
}

export function isErrorFrame(value: unknown): boolean {
  return !!value && typeof value === 'object' && (value as ErrorBody).object === 'error';
}

export async function errorFromResponse(response: Response): Promise<GatewayError> {
  const retry = Number(response.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text.trim() || `${response.status} ${response.statusText}`.trim() };
  }
  return errorFromBody(body, response.status, retryAfter);
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
