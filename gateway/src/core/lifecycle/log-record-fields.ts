/**
 * The fields of one log record as the logger writes them: a `msg` among the fields would be written
 * beside the record's own message, two `msg` keys in one JSON line (most readers keep only the last),
 * so it is kept as `detail`. Records without one pass through untouched (no copy per log line).
 */
export function logRecordFields(fields: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(fields, 'msg')) return fields;
  const { msg, ...rest } = fields;
  return { ...rest, detail: msg };
}
