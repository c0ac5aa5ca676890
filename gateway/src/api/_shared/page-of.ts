/** A list response from `limit + 1` fetched items: the first `limit`, and whether more exist. */
export function pageOf<T, R>(fetched: T[], limit: number, toPublic: (item: T) => R): { object: 'list'; data: R[]; has_more: boolean } {
  return { object: 'list', data: fetched.slice(0, limit).map(toPublic), has_more: fetched.length > limit };
}
