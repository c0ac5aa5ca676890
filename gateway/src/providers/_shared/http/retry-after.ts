type HeaderValue = string | string[] | undefined;

/**
 * Seconds to wait, from `Retry-After` (delta-seconds or an HTTP date) or OpenAI's `retry-after-ms`;
 * undefined when the upstream said nothing usable.
 */
export function parseRetryAfter(headers: Record<string, HeaderValue>, now: number = Date.now()): number | undefined {
  const ms = first(headers['retry-after-ms']);
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.max(0, Math.ceil(Number(ms) / 1000));

  const value = first(headers['retry-after'])?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function first(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
