/** A dataset item's fields as plain text, one `field: value` a line (it comes from the user: never rendered as HTML). */
export const itemText = (item: Record<string, unknown>): string =>
  Object.entries(item)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
