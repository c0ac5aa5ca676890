/** A size for an error message, in megabytes with at most one decimal: `megabytes(2 ** 21)` is "2 MB". */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;
}
