/** Words that name the same field on documents; a property-name token matches any of its group. */
const SYNONYMS: string[][] = [
  ['total', 'due', 'balance', 'grand', 'sum', 'amount', 'payable'],
  ['amount', 'total', 'sum', 'price', 'cost', 'value', 'due'],
  ['number', 'no', 'num', 'nr', '#', 'id', 'ref', 'reference'],
  ['date', 'dated', 'issued', 'on'],
  ['invoice', 'inv', 'bill', 'receipt'],
  ['vendor', 'seller', 'supplier', 'merchant', 'from', 'company', 'issuer'],
  ['customer', 'client', 'buyer', 'bill', 'to', 'sold', 'recipient'],
  ['quantity', 'qty', 'units', 'count'],
  ['description', 'item', 'product', 'service', 'details'],
  ['unit', 'each', 'rate'],
  ['price', 'rate', 'cost'],
  ['tax', 'vat', 'gst'],
  ['subtotal', 'sub'],
  ['email', 'e-mail', 'mail'],
  ['phone', 'tel', 'telephone', 'mobile'],
];

/** Tokens too generic to identify a field on their own. */
export const GENERIC_TOKENS = new Set(['name', 'number', 'date', 'amount', 'id', 'address', 'value', 'type', 'code']);

/** Splits identifiers and text into lowercase tokens: snake_case, camelCase, punctuation; keeps `#`. */
export function labelTokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:()]/g, ' ')
    .replace(/#/g, ' # ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

/** The synonym group of a token (the token itself included). */
export function synonymGroup(token: string): Set<string> {
  const group = new Set([token]);
  for (const list of SYNONYMS) if (list[0] === token || (token.endsWith('s') && list[0] === token.slice(0, -1))) list.forEach((t) => group.add(t));
  return group;
}
