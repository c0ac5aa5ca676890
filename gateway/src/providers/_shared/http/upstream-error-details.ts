/** What an upstream error body says, in whichever camp's shape it came. */
export interface UpstreamErrorDetails {
  message?: string;
  param?: string;
  code?: string;
}

/**
 * Reads the OpenAI shape `{error: {message, param, code}}`, Mistral's `{message, detail}` (where
 * `message` may itself hold a validation `detail` list), FastAPI's `{detail: string | [{loc, msg}]}`,
 * and a plain-text body.
 */
export function readUpstreamErrorDetails(bodyText: string): UpstreamErrorDetails {
  const trimmed = bodyText.trim();
  if (trimmed === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(trimmed);
  } catch {
    return { message: truncate(trimmed) };
  }
  if (!isRecord(body)) return {};

  const error = body.error;
  if (isRecord(error)) return fromRecord(error);
  if (typeof error === 'string') return { message: truncate(error), ...codeAndParam(body) };
  return fromRecord(body);
}

function fromRecord(record: Record<string, unknown>): UpstreamErrorDetails {
  const { message, detail } = record;
  const details = codeAndParam(record);
  if (typeof message === 'string' && message !== '') return { ...details, message: truncate(message) };
  if (isRecord(message)) return { ...fromDetail(message.detail), ...details };
  return { ...fromDetail(detail), ...details };
}

function fromDetail(detail: unknown): UpstreamErrorDetails {
  if (typeof detail === 'string') return { message: truncate(detail) };
  if (!Array.isArray(detail)) return {};
  const items = detail.filter(isRecord);
  if (items.length === 0) return {};
  const describe = (item: Record<string, unknown>): string => {
    const field = fieldOf(item.loc);
    const msg = typeof item.msg === 'string' ? item.msg : 'invalid value';
    return field ? `${field}: ${msg}` : msg;
  };
  return { message: truncate(items.map(describe).join('; ')), param: fieldOf(items[0].loc) };
}

/** `['body', 'messages', 0, 'content']` -> `messages.0.content` */
function fieldOf(loc: unknown): string | undefined {
  if (!Array.isArray(loc)) return undefined;
  const parts = loc.filter((part) => part !== 'body').map(String);
  return parts.length > 0 ? parts.join('.') : undefined;
}

function codeAndParam(record: Record<string, unknown>): UpstreamErrorDetails {
  const details: UpstreamErrorDetails = {};
  if (typeof record.param === 'string' && record.param !== '') details.param = record.param;
  if (typeof record.code === 'string' && record.code !== '') details.code = record.code;
  return details;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function truncate(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
