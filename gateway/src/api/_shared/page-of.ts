/** The most bytes of JSON items one list page carries; a page of big items stops before it (has_more). */
export const PAGE_BYTE_BUDGET = 8 * 1024 * 1024;

/**
 * A list response from `limit + 1` fetched items: the first `limit`, and whether more exist. The
 * page ends early, with has_more, once its items pass `byteBudget` bytes of JSON (it always holds
 * one), so a page of large items stays small; the next page starts after its last item.
 */
export function pageOf<T, R>(
  fetched: T[],
  limit: number,
  toPublic: (item: T) => R,
  byteBudget = PAGE_BYTE_BUDGET,
): { object: 'list'; data: R[]; has_more: boolean } {
  const data: R[] = [];
  let bytes = 0;
  for (const item of fetched.slice(0, limit)) {
    const shaped = toPublic(item);
    bytes += Buffer.byteLength(JSON.stringify(shaped));
    if (data.length > 0 && bytes > byteBudget) return { object: 'list', data, has_more: true };
    data.push(shaped);
  }
  return { object: 'list', data, has_more: fetched.length > limit };
}
