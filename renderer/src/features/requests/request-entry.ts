import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';

export const MAX_ENTRIES = 500;

/** Newest first, without duplicates (the stream may repeat what the list already returned). */
export function mergeEntries(
  current: readonly RequestLogEntry[],
  incoming: readonly RequestLogEntry[],
): RequestLogEntry[] {
  const seen = new Set<string>();
  const merged: RequestLogEntry[] = [];
  for (const entry of [...incoming, ...current].sort((a, b) => b.time - a.time)) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    merged.push(entry);
    if (merged.length === MAX_ENTRIES) break;
  }
  return merged;
}
