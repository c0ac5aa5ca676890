/** Words that name the same field on documents; a property-name token matches any of its group. */
/** Words that name the same field on documents (English, German, French, Dutch); a property-name token matches any of its group. */
const SYNONYMS: string[][] = [
  [
    'total',
    'due',
    'grand',
    'sum',
    'amount',
    'payable',
    'summe',
    'zahlen',
    'zu',
    'gesamt',
    'endbetrag',
    'totaal',
    'ttc',
    'te',
    'betalen',
  ],
  ['amount', 'total', 'sum', 'price', 'cost', 'value', 'due', 'betrag', 'montant', 'bedrag'],
  ['number', 'no', 'num', 'nr', '#', 'id', 'ref', 'reference', 'n°', 'nº', 'nummer', 'numéro', 'numero'],
  ['date', 'dated', 'issued', 'on', 'datum'],
  ['invoice', 'inv', 'bill', 'receipt', 'rechnung', 'rechnungs', 'facture', 'factuur', 'beleg', 'bon', 'quittung'],
  ['vendor', 'seller', 'supplier', 'merchant', 'from', 'company', 'issuer', 'verkäufer', 'lieferant', 'händler'],
  ['customer', 'client', 'buyer', 'bill', 'to', 'sold', 'recipient', 'kunde', 'klant'],
  ['quantity', 'qty', 'units', 'count', 'menge', 'anzahl', 'aantal'],
  ['description', 'item', 'product', 'service', 'details', 'artikel', 'bezeichnung', 'désignation'],
  ['unit', 'each', 'rate'],
  ['price', 'rate', 'cost', 'preis', 'prix', 'prijs'],
  ['tax', 'vat', 'gst', 'mwst', 'ust', 'tva', 'btw'],
  ['subtotal', 'sub', 'zwischensumme', 'subtotaal', 'netto'],
  ['email', 'e-mail', 'mail'],
  ['phone', 'tel', 'telephone', 'mobile', 'telefon'],
  ['currency', 'währung', 'devise', 'valuta'],
];

/** Currency names and signs beside a label ("Total EUR", "Zu zahlen Euro"): not words that make a label someone else's. */
export const CURRENCY_TOKENS = new Set(['eur', 'euro', 'usd', 'gbp', 'inr', 'chf', 'rs', '$', '€', '£', '₹']);

/** Tokens too generic to identify a field on their own. */
export const GENERIC_TOKENS = new Set(['name', 'number', 'date', 'amount', 'id', 'address', 'value', 'type', 'code']);

/** Splits identifiers and text into lowercase tokens: snake_case, camelCase, punctuation; keeps `#`. */
export function labelTokens(text: string): string[] {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_\-./:()]/g, ' ')
      .replace(/#/g, ' # ')
      // German and Dutch compounds: "Rechnungsnummer", "Factuurdatum", "Gesamtbetrag".
      .replace(/(?<!\p{L})(\p{L}{3,20}?)(nummer|datum|betrag)\b/giu, '$1 $2')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
  );
}

/** The synonym group of a token (the token itself included). */
export function synonymGroup(token: string): Set<string> {
  const group = new Set([token]);
  for (const list of SYNONYMS)
    if (list[0] === token || (token.endsWith('s') && list[0] === token.slice(0, -1))) list.forEach((t) => group.add(t));
  return group;
}
