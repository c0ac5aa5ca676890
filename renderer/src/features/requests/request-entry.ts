export interface RequestEntry {
  id: string;
  time: number;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key_prefix: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cost: number | null;
}

export const MAX_ENTRIES = 500;

/** Newest first, without duplicates (the stream may repeat what the list already returned). */
export function mergeEntries(current: readonly RequestEntry[], incoming: readonly RequestEntry[]): RequestEntry[] {
  const seen = new Set<string>();
  const merged: RequestEntry[] = [];
  for (const entry of [...incoming, ...current].sort((a, b) => b.time - a.time)) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    merged.push(entry);
    if (merged.length === MAX_ENTRIES) break;
  }
  return merged;
}
